package io.tollgate.core.metrics;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets a warning through at most once per interval across all threads, so that a peer sending
 * garbage, or a bug every request hits, cannot flood the log; the suppressed occurrences are still
 * counted by the caller's metrics.
 */
public final class WarnLimiter {

    private final long intervalNanos;
    private final AtomicLong next = new AtomicLong(Long.MIN_VALUE);

    public WarnLimiter(long intervalNanos) {
        this.intervalNanos = intervalNanos;
    }

    /** True when a warning may be logged now. */
    public boolean tryAcquire() {
        long now = System.nanoTime();
        long allowedAt = next.get();
        return (allowedAt == Long.MIN_VALUE || now - allowedAt >= 0) && next.compareAndSet(allowedAt, now + intervalNanos);
    }
}
