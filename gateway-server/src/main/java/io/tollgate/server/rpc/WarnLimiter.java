package io.tollgate.server.rpc;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets a warning through at most once per interval across all threads, so that a peer sending
 * garbage cannot flood the log; the suppressed occurrences are still counted by the caller's metrics.
 */
final class WarnLimiter {

    private final long intervalNanos;
    private final AtomicLong next = new AtomicLong(Long.MIN_VALUE);

    WarnLimiter(long intervalNanos) {
        this.intervalNanos = intervalNanos;
    }

    /** True when a warning may be logged now. */
    boolean tryAcquire() {
        long now = System.nanoTime();
        long allowedAt = next.get();
        return (allowedAt == Long.MIN_VALUE || now - allowedAt >= 0) && next.compareAndSet(allowedAt, now + intervalNanos);
    }
}
