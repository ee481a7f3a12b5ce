package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A route's {@code rpc_call} action: an HTTP request {@code POST {prefix}/{service}/{method}} whose
 * body is a JSON array of arguments becomes a generic call the gateway writes in the upstream's RPC
 * protocol (Dubbo's {@code $invoke}, SOFARPC's generic request) and sends to the route's cluster; the
 * answer comes back as JSON. For gRPC and Triple the body is the JSON of the request message, and the
 * call a gRPC request typed by the upstream's server reflection or a descriptor set file. Where it is
 * forwarded (cluster, timeout, retries, subsets) is the route's {@link ForwardActionConfig}, as for any
 * forwarded request.
 *
 * @param protocol the upstream's protocol
 * @param prefix the path prefix before {@code /{service}/{method}}, without a trailing slash
 * @param methods per service (interface name), the methods and their parameter types, for providers
 *     whose registry publishes no definitions; empty when none are configured
 * @param descriptorSet for gRPC and Triple, the file of a {@code FileDescriptorSet} ({@code protoc
 *     --descriptor_set_out --include_imports}) that types the calls instead of server reflection; null
 *     when the types come from reflection
 */
public record RpcCallConfig(Protocol protocol, String prefix, Map<String, List<Method>> methods,
        String descriptorSet) {

    /** The RPC protocols the gateway writes generic calls in, by their configuration names. */
    public enum Protocol {
        /** Dubbo's {@code $invoke}, on the {@code dubbo} RPC engine. */
        DUBBO("dubbo", "dubbo"),
        /** SOFARPC's generic request, on the {@code bolt} RPC engine. */
        SOFA("sofa", "bolt"),
        /** A gRPC request (protobuf), sent as HTTP/2 on the cluster's HTTP upstream connections. */
        GRPC("grpc", "h2"),
        /** Dubbo's Triple, gRPC-compatible: the same as {@link #GRPC}. */
        TRIPLE("triple", "h2");

        private final String configName;
        private final String engine;

        Protocol(String configName, String engine) {
            this.configName = configName;
            this.engine = engine;
        }

        /** Whether calls are gRPC requests (protobuf over HTTP/2), not an RPC engine's generic calls. */
        public boolean grpc() {
            return this == GRPC || this == TRIPLE;
        }

        /** The name configuration uses. */
        public String configName() {
            return configName;
        }

        /** The name of the RPC protocol whose upstream connections carry the calls. */
        public String engine() {
            return engine;
        }

        /** The protocol configured as {@code name}, if any. */
        public static Optional<Protocol> named(String name) {
            for (Protocol protocol : values()) {
                if (protocol.configName.equals(name.toLowerCase(Locale.ROOT))) {
                    return Optional.of(protocol);
                }
            }
            return Optional.empty();
        }
    }

    /**
     * One method of a service as configured.
     *
     * @param name the method's name
     * @param parameterTypes its parameter types as Java names ({@code long}, {@code java.util.List<com.example.Item>})
     */
    public record Method(String name, List<String> parameterTypes) {

        public Method {
            requireNonNull(name, "name");
            parameterTypes = List.copyOf(parameterTypes);
        }
    }

    /** A call with no descriptor set: Dubbo, SOFA, or gRPC typed by server reflection. */
    public RpcCallConfig(Protocol protocol, String prefix, Map<String, List<Method>> methods) {
        this(protocol, prefix, methods, null);
    }

    public RpcCallConfig {
        requireNonNull(protocol, "protocol");
        requireNonNull(prefix, "prefix");
        Map<String, List<Method>> copy = new LinkedHashMap<>();
        methods.forEach((service, list) -> copy.put(service, List.copyOf(list)));
        methods = Collections.unmodifiableMap(copy);
    }
}
