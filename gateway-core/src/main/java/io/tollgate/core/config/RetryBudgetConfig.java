package io.tollgate.core.config;

/**
 * Caps a cluster's concurrent retries by a share of its active requests (Envoy's retry budget),
 * so that retries cannot multiply the load on a cluster that is already failing.
 *
 * @param budgetPercent retries active at once may be at most this share of the requests active
 *     (those waiting for a connection included)
 * @param minRetryConcurrency retries allowed at once however few requests are active
 */
public record RetryBudgetConfig(int budgetPercent, int minRetryConcurrency) {

    /** Envoy's defaults: 20 percent, at least 3. */
    public static final RetryBudgetConfig DEFAULTS = new RetryBudgetConfig(20, 3);

    public RetryBudgetConfig {
        if (budgetPercent < 0 || budgetPercent > 100) {
            throw new IllegalArgumentException("budgetPercent: " + budgetPercent + " (expected: 0..100)");
        }
        if (minRetryConcurrency < 0) {
            throw new IllegalArgumentException("minRetryConcurrency: " + minRetryConcurrency + " (expected: >= 0)");
        }
    }
}
