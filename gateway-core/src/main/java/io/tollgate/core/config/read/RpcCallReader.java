package io.tollgate.core.config.read;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.RouteMatchConfig;
import io.tollgate.core.config.RpcCallConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a route's {@code rpc_call} action: the upstream's protocol and the methods configured per
 * service (Dubbo, SOFA) or the descriptor set file (gRPC, Triple), beside the keys of a forward action that make sense for a call (cluster, timeout,
 * retries, subsets, hashing, priority). The route must match by path prefix: the prefix is what
 * comes before {@code /{service}/{method}}.
 */
final class RpcCallReader {

    /** The keys an {@code rpc_call} holds. */
    static final Set<String> KEYS = Set.of("protocol", "methods", "descriptor_set", "cluster", "weighted_clusters", "timeout",
            "metadata_match", "retry_policy", "hash_policy", "priority");

    private RpcCallReader() {
    }

    static RpcCallConfig rpcCall(ConfigNode n, RouteMatchConfig match) {
        String name = n.string("protocol");
        RpcCallConfig.Protocol protocol = RpcCallConfig.Protocol.named(name).orElseThrow(() -> n.child("protocol")
                .error("unknown protocol '" + name + "' (expected dubbo, sofa, grpc or triple)"));
        String prefix = match.prefix().orElseThrow(() -> n.error(
                "needs a prefix match: the path is {prefix}/{service}/{method}"));
        if (prefix.endsWith("/")) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
        if (protocol.grpc()) {
            if (n.has("methods")) {
                throw n.child("methods").error("is for dubbo and sofa: gRPC's types come from reflection or descriptor_set");
            }
            String descriptorSet = n.optional("descriptor_set").map(d -> d.asString().strip()).orElse(null);
            if (descriptorSet != null && descriptorSet.isEmpty()) {
                throw n.child("descriptor_set").error("must name a file");
            }
            return new RpcCallConfig(protocol, prefix, Map.of(), descriptorSet);
        }
        if (n.has("descriptor_set")) {
            throw n.child("descriptor_set").error("is for grpc and triple");
        }
        Map<String, List<RpcCallConfig.Method>> methods = new LinkedHashMap<>();
        n.optional("methods").ifPresent(m -> {
            for (String service : m.keys()) {
                methods.put(service, m.list(service, RpcCallReader::method));
            }
        });
        return new RpcCallConfig(protocol, prefix, methods);
    }

    private static RpcCallConfig.Method method(ConfigNode n) {
        n.allowOnly(Set.of("name", "parameter_types"));
        List<String> types = n.list("parameter_types", t -> {
            String type = t.asString().strip();
            if (type.isEmpty()) {
                throw t.error("must name a Java type");
            }
            return type;
        });
        return new RpcCallConfig.Method(n.string("name"), types);
    }
}
