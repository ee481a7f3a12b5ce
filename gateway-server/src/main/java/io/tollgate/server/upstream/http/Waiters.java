package io.tollgate.server.upstream.http;

import io.tollgate.router.breaker.CircuitBreakers;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The requests of one pool that found no ready connection, in one first-come-first-served queue,
 * and the connects in flight that were started for them (Envoy's pending streams and connecting
 * clients). Whichever connection becomes ready first, a finished connect or a released one, serves
 * the head of the queue, so no request waits for "its" connect while another connection is free.
 *
 * <p>A waiter that a connect in flight covers (there are no more waiters than connects) is not
 * pending; each waiter beyond them is, and holds a place that is bounded per pool by the cluster's
 * {@code max_pending_requests} and across every pool and event loop by the cluster's
 * pending-request circuit breaker. Past either bound a newcomer overflows. Confined to the pool's
 * event loop.
 */
final class Waiters {

    private final ArrayDeque<UpstreamPool.Acquirer> queue = new ArrayDeque<>();
    private final int limit;
    private final CircuitBreakers breakers;
    private final PoolEvents events;
    private int connecting;
    private int places;

    Waiters(int limit, CircuitBreakers breakers, PoolEvents events) {
        this.limit = limit;
        this.breakers = breakers;
        this.events = events;
    }

    /** Connects in flight. */
    int connecting() {
        return connecting;
    }

    /** Whether a newcomer would have no connect in flight of its own: one more connect would serve it. */
    boolean wantsConnect() {
        return queue.size() >= connecting;
    }

    /** Whether some waiter has no connect in flight of its own. */
    boolean hasUncovered() {
        return queue.size() > connecting;
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** A connect started for the waiters: one of them (or the next newcomer) is no longer pending. */
    void connectStarted() {
        connecting++;
        giveBackSurplus();
    }

    /**
     * A connect in flight produced a ready connection. The caller MUST serve the head of the queue
     * with it now, if there is one: that is what keeps the pending count exact.
     */
    void connectSucceeded() {
        connecting--;
    }

    /**
     * A connect in flight ended without serving anyone. If {@code othersServe} (connections that
     * will free up or become ready), the waiter it covered keeps waiting when a pending place is
     * free and overflows when none is. Without others, every waiter beyond the connects still in
     * flight fails as a connect failure: nothing else would serve it.
     */
    void connectEnded(boolean othersServe, Throwable cause) {
        connecting--;
        List<UpstreamPool.Acquirer> failing = new ArrayList<>();
        while (queue.size() > connecting + (othersServe ? places : 0)) {
            if (othersServe && takePlace()) {
                places++;
            } else {
                failing.add(queue.pollFirst());
            }
        }
        giveBackSurplus();
        for (UpstreamPool.Acquirer acquirer : failing) {
            if (othersServe) {
                events.overflow();
                acquirer.failed(UpstreamPool.Failure.OVERFLOW, null);
            } else {
                acquirer.failed(UpstreamPool.Failure.CONNECT_FAILED, cause);
            }
        }
    }

    /**
     * Queues {@code acquirer} behind the others: covered by a connect in flight, or pending if a
     * place is free; otherwise counts an overflow and fails it at once.
     */
    void add(UpstreamPool.Acquirer acquirer) {
        if (queue.size() >= connecting) {
            if (!takePlace()) {
                events.overflow();
                acquirer.failed(UpstreamPool.Failure.OVERFLOW, null);
                return;
            }
            places++;
        }
        queue.addLast(acquirer);
    }

    /** The longest waiting acquirer, no longer waiting, or null. */
    UpstreamPool.Acquirer poll() {
        UpstreamPool.Acquirer acquirer = queue.pollFirst();
        giveBackSurplus();
        return acquirer;
    }

    /**
     * Empties the queue, giving back every pending place: the caller moves each waiter elsewhere.
     * Connects in flight stay counted until they end.
     */
    List<UpstreamPool.Acquirer> takeAll() {
        List<UpstreamPool.Acquirer> all = new ArrayList<>(queue);
        queue.clear();
        giveBackSurplus();
        return all;
    }

    /** Forgets {@code acquirer} if it still waits. */
    void remove(UpstreamPool.Acquirer acquirer) {
        if (queue.remove(acquirer)) {
            giveBackSurplus();
        }
    }

    private boolean takePlace() {
        return places < limit && breakers.tryEnqueue();
    }

    private void giveBackSurplus() {
        int pending = Math.max(0, queue.size() - connecting);
        while (places > pending) {
            places--;
            breakers.dequeued();
        }
    }
}
