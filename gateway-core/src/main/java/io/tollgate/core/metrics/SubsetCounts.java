package io.tollgate.core.metrics;

/**
 * How a cluster's subset load balancer has resolved requests since the cluster was built; the
 * router implements it, and {@link ClusterMetrics} publishes it as counters.
 */
public interface SubsetCounts {

    /** Requests served by the subset their metadata names. */
    long exactMatches();

    /** Requests served by a smaller key set's subset ({@code KEYS_SUBSET} fallback). */
    long keysSubsetFallbacks();

    /** Requests served by {@code ANY_ENDPOINT} or {@code DEFAULT_SUBSET}. */
    long policyFallbacks();

    /** Requests for which no host was left. */
    long noHost();
}
