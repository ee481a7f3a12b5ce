package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

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
 * @param retryPolicy when and how often failed attempts are retried; empty means never
 * @param perRequestBufferLimitBytes the most request body bytes kept for a retry; a request with
 *     a longer body streams through and is not retried
 * @param hashPolicy for a cluster balanced by {@code ring_hash} or {@code maglev}: what of the
 *     request is hashed, instead of the cluster's own hash policy; empty means the cluster's
 * @param priority whose circuit breakers of the cluster the route's requests count against
 * @param maxGrpcTimeout the longest deadline a gRPC client's {@code grpc-timeout} may set (Envoy's
 *     {@code max_grpc_timeout}); a longer one is cut to it; defaults to {@code timeout}
 */
public record ForwardActionConfig(
        Optional<String> cluster,
        List<WeightedClusterConfig> weightedClusters,
        Optional<String> prefixRewrite,
        Optional<String> hostRewrite,
        Duration timeout,
        Map<String, String> metadataMatch,
        Optional<RetryPolicyConfig> retryPolicy,
        int perRequestBufferLimitBytes,
        List<HashPolicyConfig> hashPolicy,
        RoutingPriority priority,
        Duration maxGrpcTimeout) {

    /** Envoy's default route timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);
    /** 64 KiB of request body kept for retries. */
    public static final int DEFAULT_PER_REQUEST_BUFFER_LIMIT_BYTES = 64 * 1024;

    public ForwardActionConfig {
        weightedClusters = List.copyOf(weightedClusters);
        metadataMatch = Map.copyOf(metadataMatch);
        requireNonNull(retryPolicy, "retryPolicy");
        if (perRequestBufferLimitBytes < 0) {
            throw new IllegalArgumentException("perRequestBufferLimitBytes: " + perRequestBufferLimitBytes
                    + " (expected: >= 0)");
        }
        hashPolicy = List.copyOf(hashPolicy);
        requireNonNull(priority, "priority");
        if (maxGrpcTimeout.isNegative() || maxGrpcTimeout.isZero()) {
            throw new IllegalArgumentException("maxGrpcTimeout: " + maxGrpcTimeout + " (expected: > 0)");
        }
    }

    /**
     * A forward action with no retries, the default retry buffer, the cluster's hashing, the
     * default priority and gRPC deadlines no longer than {@code timeout}.
     */
    public ForwardActionConfig(Optional<String> cluster, List<WeightedClusterConfig> weightedClusters,
            Optional<String> prefixRewrite, Optional<String> hostRewrite, Duration timeout,
            Map<String, String> metadataMatch) {
        this(cluster, weightedClusters, prefixRewrite, hostRewrite, timeout, metadataMatch, Optional.empty(),
                DEFAULT_PER_REQUEST_BUFFER_LIMIT_BYTES, List.of(), RoutingPriority.DEFAULT, timeout);
    }
}
