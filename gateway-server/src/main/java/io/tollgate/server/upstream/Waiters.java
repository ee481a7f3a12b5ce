package io.tollgate.server.upstream;

import io.tollgate.router.breaker.CircuitBreakers;
import java.util.ArrayDeque;

/**
 * The requests waiting for a connection of one pool, first come first served: bounded per pool
 * by the cluster's {@code max_pending_requests} and counted in the cluster's pending-request
 * circuit breaker, which bounds them across every pool and event loop. Confined to the pool's
 * event loop.
 */
final class Waiters {

    private final ArrayDeque<UpstreamPool.Acquirer> queue = new ArrayDeque<>();
    private final int limit;
    private final CircuitBreakers breakers;

    Waiters(int limit, CircuitBreakers breakers) {
        this.limit = limit;
        this.breakers = breakers;
    }

    /** Queues {@code acquirer}, or returns false when the pool's queue or the cluster's breaker is full. */
    boolean offer(UpstreamPool.Acquirer acquirer) {
        if (queue.size() >= limit || !breakers.tryEnqueue()) {
            return false;
        }
        queue.addLast(acquirer);
        return true;
    }

    /** The longest waiting acquirer, no longer counted as waiting, or null. */
    UpstreamPool.Acquirer poll() {
        UpstreamPool.Acquirer acquirer = queue.pollFirst();
        if (acquirer != null) {
            breakers.dequeued();
        }
        return acquirer;
    }

    /** Forgets {@code acquirer} if it still waits. */
    void remove(UpstreamPool.Acquirer acquirer) {
        if (queue.remove(acquirer)) {
            breakers.dequeued();
        }
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }
}
