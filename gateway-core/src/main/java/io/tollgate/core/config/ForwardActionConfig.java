package io.tollgate.core.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Forwards a request upstream: to one cluster or to weighted clusters, with optional rewrites
 * and a timeout for the whole upstream exchange.
 *
 * @param metadataMatch the labels a host must carry to serve the request, used by a cluster with
 *     subset load balancing; empty means no subset is asked for
 * @param hashPolicy for a cluster balanced by {@code ring_hash} or {@code maglev}: what of the
 *     request is hashed, instead of the cluster's own hash policy; empty means the cluster's
 */
public record ForwardActionConfig(
        Optional<String> cluster,
        List<WeightedClusterConfig> weightedClusters,
        Optional<String> prefixRewrite,
        Optional<String> hostRewrite,
        Duration timeout,
        Map<String, String> metadataMatch,
        List<HashPolicyConfig> hashPolicy) {

    /** Envoy's default route timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);

    public ForwardActionConfig {
        weightedClusters = List.copyOf(weightedClusters);
        metadataMatch = Map.copyOf(metadataMatch);
        hashPolicy = List.copyOf(hashPolicy);
    }

    /** A forward action that leaves hashing to the cluster. */
    public ForwardActionConfig(Optional<String> cluster, List<WeightedClusterConfig> weightedClusters,
            Optional<String> prefixRewrite, Optional<String> hostRewrite, Duration timeout,
            Map<String, String> metadataMatch) {
        this(cluster, weightedClusters, prefixRewrite, hostRewrite, timeout, metadataMatch, List.of());
    }
}
