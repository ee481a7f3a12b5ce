package io.tollgate.router.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.CircuitBreakerThresholdsConfig;
import io.tollgate.core.config.CircuitBreakersConfig;
import io.tollgate.core.config.RoutingPriority;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PriorityCircuitBreakersTest {

    @Test
    void eachPriorityCountsAgainstItsOwnLimits() {
        PriorityCircuitBreakers breakers = new PriorityCircuitBreakers(new CircuitBreakersConfig(
                new CircuitBreakerThresholdsConfig(1024, 1024, 1, 3, Optional.empty()),
                new CircuitBreakerThresholdsConfig(1024, 1024, 2, 3, Optional.empty())));

        assertThat(breakers.of(RoutingPriority.DEFAULT).tryStartRequest()).isTrue();
        assertThat(breakers.of(RoutingPriority.DEFAULT).tryStartRequest()).as("default overflows").isFalse();
        assertThat(breakers.of(RoutingPriority.HIGH).tryStartRequest()).as("high still flows").isTrue();
        assertThat(breakers.of(RoutingPriority.HIGH).tryStartRequest()).isTrue();
        assertThat(breakers.of(RoutingPriority.HIGH).tryStartRequest()).isFalse();
        assertThat(breakers.of(RoutingPriority.DEFAULT).requests()).isEqualTo(1);
        assertThat(breakers.of(RoutingPriority.HIGH).requests()).isEqualTo(2);
    }

    @Test
    void aPriorityIsAlwaysTheSameInstance() {
        PriorityCircuitBreakers breakers = new PriorityCircuitBreakers(CircuitBreakersConfig.DEFAULTS);

        assertThat(breakers.of(RoutingPriority.HIGH)).isSameAs(breakers.of(RoutingPriority.HIGH))
                .isNotSameAs(breakers.of(RoutingPriority.DEFAULT));
    }
}
