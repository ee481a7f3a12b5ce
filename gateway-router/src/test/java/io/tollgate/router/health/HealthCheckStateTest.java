package io.tollgate.router.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HealthCheckStateTest {

    @Test
    void aHostNotProbedYetCountsAsHealthy() {
        assertThat(new HealthCheckState(2, 3).healthy()).isTrue();
    }

    @Test
    void theFirstFailedProbeTakesTheHostOutAtOnce() {
        HealthCheckState state = new HealthCheckState(2, 3);

        assertThat(state.record(false)).isTrue();
        assertThat(state.healthy()).isFalse();
    }

    @Test
    void theFirstPassingProbeChangesNothing() {
        HealthCheckState state = new HealthCheckState(2, 3);

        assertThat(state.record(true)).isFalse();
        assertThat(state.healthy()).isTrue();
    }

    @Test
    void aHealthyHostTurnsUnhealthyOnlyAfterTheUnhealthyThresholdOfFailuresInARow() {
        HealthCheckState state = new HealthCheckState(2, 3);
        state.record(true);

        assertThat(state.record(false)).isFalse();
        assertThat(state.record(false)).isFalse();
        assertThat(state.record(true)).isFalse();
        assertThat(state.record(false)).isFalse();
        assertThat(state.record(false)).isFalse();
        assertThat(state.healthy()).isTrue();
        assertThat(state.record(false)).isTrue();
        assertThat(state.healthy()).isFalse();
    }

    @Test
    void anUnhealthyHostComesBackOnlyAfterTheHealthyThresholdOfPassesInARow() {
        HealthCheckState state = new HealthCheckState(3, 1);
        state.record(false);

        assertThat(state.record(true)).isFalse();
        assertThat(state.record(true)).isFalse();
        assertThat(state.record(false)).isFalse();
        assertThat(state.record(true)).isFalse();
        assertThat(state.record(true)).isFalse();
        assertThat(state.healthy()).isFalse();
        assertThat(state.record(true)).isTrue();
        assertThat(state.healthy()).isTrue();
        assertThat(state.record(false)).isTrue();
    }

    @Test
    void rejectsThresholdsBelowOne() {
        assertThatThrownBy(() -> new HealthCheckState(0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("thresholds: 0/1 (expected: >= 1)");
    }
}
