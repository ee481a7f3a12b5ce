package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * Limits on what one cluster may have in flight at once across every event loop (Envoy's circuit
 * breakers); a request past a limit is answered at once instead of piling up behind a failing
 * cluster.
 *
 * @param maxConnections upstream connections open to all hosts of the cluster
 * @param maxPendingRequests requests waiting for a connection
 * @param maxRequests requests sent or waiting to be sent
 * @param maxRetries retries active at once, when there is no retry budget
 * @param retryBudget when present, replaces {@code maxRetries} by a share of the active requests
 */
public record CircuitBreakersConfig(
        int maxConnections,
        int maxPendingRequests,
        int maxRequests,
        int maxRetries,
        Optional<RetryBudgetConfig> retryBudget) {

    /** Envoy's defaults: 1024 connections, pending and active requests, 3 retries, no budget. */
    public static final CircuitBreakersConfig DEFAULTS = new CircuitBreakersConfig(1024, 1024, 1024, 3, Optional.empty());

    public CircuitBreakersConfig {
        requireNonNull(retryBudget, "retryBudget");
        positive("maxConnections", maxConnections);
        atLeastZero("maxPendingRequests", maxPendingRequests);
        positive("maxRequests", maxRequests);
        atLeastZero("maxRetries", maxRetries);
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 1)");
        }
    }

    private static void atLeastZero(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
        }
    }
}
