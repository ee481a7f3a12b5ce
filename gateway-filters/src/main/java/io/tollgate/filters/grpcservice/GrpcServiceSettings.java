package io.tollgate.filters.grpcservice;

import io.tollgate.core.config.ConfigNode;
import java.time.Duration;
import java.util.Set;

/**
 * Where a policy service listens and how long a call to it may take: Envoy's {@code grpc_service}
 * with a {@code google_grpc.target_uri} and a {@code timeout}.
 *
 * @param target the grpc-java target, {@code host:port} or a URI such as {@code dns:///rls.example:8081}
 * @param timeout the deadline of each call
 */
public record GrpcServiceSettings(String target, Duration timeout) {

    /** The keys of a {@code grpc_service} block. */
    static final Set<String> KEYS = Set.of("target", "timeout");

    public GrpcServiceSettings {
        if (target == null || target.isBlank()) {
            throw new IllegalArgumentException("target");
        }
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout");
        }
    }

    /**
     * Reads a {@code grpc_service} block: {@code target} (required) and {@code timeout}
     * ({@code defaultTimeout} when absent), with path-named errors.
     */
    public static GrpcServiceSettings parse(ConfigNode node, Duration defaultTimeout) {
        node.allowOnly(KEYS);
        String target = node.string("target");
        if (target.isBlank()) {
            throw node.child("target").error("empty (expected host:port or a gRPC target URI)");
        }
        return new GrpcServiceSettings(target, node.positiveDuration("timeout", defaultTimeout));
    }
}
