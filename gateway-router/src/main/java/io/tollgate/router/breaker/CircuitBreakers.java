package io.tollgate.router.breaker;

import static java.util.Objects.requireNonNull;

import io.tollgate.core.config.CircuitBreakerThresholdsConfig;
import io.tollgate.core.config.RetryBudgetConfig;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The live circuit breakers of one priority of one cluster (Envoy's resource manager): counts of
 * its open connections, pending requests, requests and active retries across every event loop,
 * each with its limit. A caller asks before it takes a resource and MUST give back exactly what it
 * got, to the same instance.
 *
 * <p>A retry is active from the moment it is granted until the attempt it starts ends. With a
 * retry budget, retries active at once may be at most {@code budget_percent} of the requests
 * active (those waiting for a connection included: a request is taken before its connection is
 * asked for), and never fewer than {@code min_retry_concurrency}.
 */
public final class CircuitBreakers {

    private final CircuitBreakerThresholdsConfig config;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger retries = new AtomicInteger();

    public CircuitBreakers(CircuitBreakerThresholdsConfig config) {
        this.config = requireNonNull(config, "config");
    }

    /**
     * Takes a connection unless the cluster has {@code max_connections} open; {@code force}
     * takes one anyway, for a pool that has none (else its waiting requests would starve).
     */
    public boolean tryOpenConnection(boolean force) {
        if (force) {
            connections.incrementAndGet();
            return true;
        }
        return tryTake(connections, config.maxConnections());
    }

    public void connectionClosed() {
        give(connections, "connections");
    }

    /** Takes a place in the cluster's queue of requests waiting for a connection, unless it is full. */
    public boolean tryEnqueue() {
        return tryTake(pending, config.maxPendingRequests());
    }

    public void dequeued() {
        give(pending, "pending requests");
    }

    /** Takes a request, waiting for a connection or sent, unless the cluster has {@code max_requests} active. */
    public boolean tryStartRequest() {
        return tryTake(requests, config.maxRequests());
    }

    public void requestFinished() {
        give(requests, "requests");
    }

    /** Grants a retry unless the retry budget (or without one, {@code max_retries}) is used up. */
    public boolean tryStartRetry() {
        return tryTake(retries, retryLimit());
    }

    public void retryFinished() {
        give(retries, "retries");
    }

    /** Connections open now. */
    public int connections() {
        return connections.get();
    }

    /** Requests waiting for a connection now. */
    public int pendingRequests() {
        return pending.get();
    }

    /** Requests active now. */
    public int requests() {
        return requests.get();
    }

    /** Retries active now. */
    public int retries() {
        return retries.get();
    }

    private int retryLimit() {
        if (config.retryBudget().isEmpty()) {
            return config.maxRetries();
        }
        RetryBudgetConfig budget = config.retryBudget().get();
        long active = requests.get();
        return (int) Math.max(budget.minRetryConcurrency(), active * budget.budgetPercent() / 100);
    }

    private static boolean tryTake(AtomicInteger counter, int limit) {
        while (true) {
            int now = counter.get();
            if (now >= limit) {
                return false;
            }
            if (counter.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    private static void give(AtomicInteger counter, String what) {
        if (counter.decrementAndGet() < 0) {
            counter.incrementAndGet();
            throw new IllegalStateException(what + ": given back more often than taken");
        }
    }
}
