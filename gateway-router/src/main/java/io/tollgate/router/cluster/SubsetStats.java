package io.tollgate.router.cluster;

import io.tollgate.core.metrics.SubsetCounts;
import java.util.concurrent.atomic.LongAdder;

/**
 * How a cluster's subset load balancer resolved requests: by exact subset, by a selector's
 * {@code keys_subset} fallback, by a fallback policy, or not at all. Counted on every event loop
 * at once without contention.
 */
public final class SubsetStats implements SubsetCounts {

    private final LongAdder exactMatches = new LongAdder();
    private final LongAdder keysSubsetFallbacks = new LongAdder();
    private final LongAdder policyFallbacks = new LongAdder();
    private final LongAdder noHost = new LongAdder();

    /** Requests served by the subset their metadata names. */
    @Override
    public long exactMatches() {
        return exactMatches.sum();
    }

    /** Requests served by a smaller key set's subset ({@code KEYS_SUBSET} fallback). */
    @Override
    public long keysSubsetFallbacks() {
        return keysSubsetFallbacks.sum();
    }

    /** Requests served by {@code ANY_ENDPOINT} or {@code DEFAULT_SUBSET}, of a selector or the cluster. */
    @Override
    public long policyFallbacks() {
        return policyFallbacks.sum();
    }

    /** Requests for which no host was left ({@code NO_FALLBACK}, or an empty fallback). */
    @Override
    public long noHost() {
        return noHost.sum();
    }

    HostCandidates exact(HostCandidates candidates) {
        exactMatches.increment();
        return candidates;
    }

    HostCandidates keysSubset(HostCandidates candidates) {
        keysSubsetFallbacks.increment();
        return candidates;
    }

    HostCandidates policy(HostCandidates candidates) {
        (candidates == null ? noHost : policyFallbacks).increment();
        return candidates;
    }

    HostCandidates none() {
        noHost.increment();
        return null;
    }
}
