package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The limits of one priority of a cluster's circuit breakers (Envoy's {@code Thresholds}): what
 * that priority's traffic may have in flight at once across every event loop; a request past a
 * limit is answered at once instead of piling up behind a failing cluster.
 *
 * @param maxConnections upstream connections open to all hosts of the cluster
 * @param maxPendingRequests requests waiting for a connection
 * @param maxRequests requests sent or waiting to be sent
 * @param maxRetries retries active at once, when there is no retry budget
 * @param retryBudget when present, replaces {@code maxRetries} by a share of the active requests
 */
public record CircuitBreakerThresholdsConfig(
        int maxConnections,
        int maxPendingRequests,
        int maxRequests,
        int maxRetries,
        Optional<RetryBudgetConfig> retryBudget) {

    /** Envoy's defaults: 1024 connections, pending and active requests, 3 retries, no budget. */
    public static final CircuitBreakerThresholdsConfig DEFAULTS =
            new CircuitBreakerThresholdsConfig(1024, 1024, 1024, 3, Optional.empty());

    public CircuitBreakerThresholdsConfig {
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
