package io.tollgate.router.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProbeDelaysTest {

    @Test
    void withoutJitterEveryDelayIsTheInterval() {
        ProbeDelays delays = new ProbeDelays(Duration.ofMillis(100), Duration.ZERO, new Random(1));

        assertThat(delays.nextNanos()).isEqualTo(100_000_000L);
        assertThat(delays.nextNanos()).isEqualTo(100_000_000L);
    }

    @Test
    void jitterSpreadsDelaysBetweenTheIntervalAndTheIntervalPlusTheJitter() {
        ProbeDelays delays = new ProbeDelays(Duration.ofMillis(100), Duration.ofMillis(50), new Random(7));
        Set<Long> seen = new HashSet<>();

        for (int i = 0; i < 1000; i++) {
            long delay = delays.nextNanos();
            assertThat(delay).isBetween(100_000_000L, 150_000_000L);
            seen.add(delay / 10_000_000L);
        }

        assertThat(seen).hasSizeGreaterThanOrEqualTo(5);
    }

    @Test
    void rejectsANegativeJitter() {
        assertThatThrownBy(() -> new ProbeDelays(Duration.ofSeconds(1), Duration.ofMillis(-1), new Random()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected: interval > 0, jitter >= 0");
    }
}
