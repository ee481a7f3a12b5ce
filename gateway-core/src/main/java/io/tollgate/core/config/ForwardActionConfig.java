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
 */
public record ForwardActionConfig(
        Optional<String> cluster,
        List<WeightedClusterConfig> weightedClusters,
        Optional<String> prefixRewrite,
        Optional<String> hostRewrite,
        Duration timeout,
        Map<String, String> metadataMatch) {

    /** Envoy's default route timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);

    public ForwardActionConfig {
        weightedClusters = List.copyOf(weightedClusters);
        metadataMatch = Map.copyOf(metadataMatch);
    }
}
