package io.tollgate.xds.transport;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with jitter between reconnection attempts: the cap doubles with every
 * failed attempt up to a maximum, and each wait is drawn between half the cap and the cap, so
 * that gateways cut off together do not return together.
 */
final class Backoff {

    private final long initialNanos;
    private final long maxNanos;
    private int attempts;

    Backoff(Duration initial, Duration max) {
        this.initialNanos = initial.toNanos();
        this.maxNanos = max.toNanos();
    }

    /** The wait before the next attempt, in nanoseconds. */
    long nextDelayNanos() {
        long cap = initialNanos << Math.min(attempts, 30);
        if (cap <= 0 || cap > maxNanos) {
            cap = maxNanos;
        }
        attempts++;
        return cap / 2 + ThreadLocalRandom.current().nextLong(cap / 2 + 1);
    }

    /** A success: the next failure waits the initial time again. */
    void reset() {
        attempts = 0;
    }
}
