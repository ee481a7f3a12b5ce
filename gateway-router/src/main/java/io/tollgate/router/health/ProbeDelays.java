package io.tollgate.router.health;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The wait before each health probe: the interval plus a random share of the jitter, so that
 * the probes of many hosts (and of many gateways) do not all fire in the same instant.
 */
public final class ProbeDelays {

    private final long intervalNanos;
    private final long jitterNanos;
    private final RandomGenerator random;

    public ProbeDelays(Duration interval, Duration jitter, RandomGenerator random) {
        this.intervalNanos = requireNonNull(interval, "interval").toNanos();
        this.jitterNanos = requireNonNull(jitter, "jitter").toNanos();
        this.random = requireNonNull(random, "random");
        if (intervalNanos <= 0 || jitterNanos < 0) {
            throw new IllegalArgumentException("interval/jitter: " + interval + "/" + jitter
                    + " (expected: interval > 0, jitter >= 0)");
        }
    }

    /** The next delay in nanoseconds, between the interval and the interval plus the jitter. */
    public long nextNanos() {
        return jitterNanos == 0 ? intervalNanos : intervalNanos + random.nextLong(jitterNanos + 1);
    }
}
