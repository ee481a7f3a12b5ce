package io.tollgate.xds.translation;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.extensions.filters.http.grpc_stats.v3.FilterConfig;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What istiod sends that only feeds Envoy's or Istio's telemetry: Istio's metadata exchange on
 * clusters and HTTP connection managers, its ALPN override for mesh mTLS, Envoy's gRPC statistics
 * filter, the {@code istio} filter metadata of clusters. The gateway has none of the telemetry they
 * serve (Istio's peer labels, per-method gRPC stats), so they are accepted as no-ops, each
 * logged once at INFO with the reason; anything else in their place is still refused.
 */
final class IstioExtensions {

    /** Istio's metadata exchange, on clusters (TCP) and HTTP connection managers (peer metadata). */
    static final String METADATA_EXCHANGE = "istio.metadata_exchange";

    /** The filter metadata namespace of Istio's telemetry labels. */
    static final String ISTIO_METADATA = "istio";
    /** The ALPN name of Istio's mesh mTLS: the peer is a mesh workload. */
    static final String ALPN_ISTIO = "istio";
    /** The ALPN name asking a mesh workload for Istio's TCP metadata exchange. */
    static final String ALPN_PEER_EXCHANGE = "istio-peer-exchange";

    private static final Logger LOG = LoggerFactory.getLogger(IstioExtensions.class);
    private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();
    private static final String TCP_METADATA_EXCHANGE = "type.googleapis.com/envoy.tcp.metadataexchange.config.MetadataExchange";
    private static final String PEER_METADATA = "type.googleapis.com/io.istio.http.peer_metadata.Config";
    private static final String ALPN = "type.googleapis.com/istio.envoy.config.filter.http.alpn.v2alpha1.FilterConfig";
    /** The filter metadata namespaces a cluster may carry, and why they have no effect here. */
    private static final Map<String, String> CLUSTER_METADATA = Map.of(ISTIO_METADATA,
            "carries Istio's service labels and config names for its telemetry (istio.stats), which the gateway"
            + " does not run");

    private IstioExtensions() {
    }

    /**
     * Whether {@code filter} is one of Istio's telemetry-only HTTP filters, accepted and left off
     * the chain: {@code istio.metadata_exchange} (peer metadata), {@code istio.alpn} (done by
     * {@link #alpnOverride} on the clusters instead) or Envoy's {@code grpc_stats}.
     * They are known by their configuration's type, as Envoy knows them.
     */
    static boolean telemetryHttpFilter(HttpFilter filter, String at) {
        Any config = filter.getTypedConfig();
        if (PEER_METADATA.equals(typedStructUrl(config))) {
            accepted("HTTP filter " + METADATA_EXCHANGE, "exchanges Istio's peer labels for its telemetry");
            return true;
        }
        if (ALPN.equals(config.getTypeUrl())) {
            // What it does, the gateway does for every mesh mTLS cluster: alpnOverride.
            return true;
        }
        if (config.is(FilterConfig.class)) {
            try {
                Fields.allowOnly(config.unpack(FilterConfig.class), at + ".typed_config", Set.of("emit_filter_state",
                        "stats_for_all_methods", "individual_method_stats_allowlist", "enable_upstream_stats",
                        "replace_dots_in_grpc_service_name"));
            } catch (InvalidProtocolBufferException e) {
                throw new XdsRejection(at + ".typed_config: cannot be decoded: " + e.getMessage());
            }
            accepted("HTTP filter envoy.filters.http.grpc_stats", "counts gRPC messages per method for Envoy's stats,"
                    + " which the gateway does not keep; its own access log and metrics show gRPC status");
            return true;
        }
        return false;
    }

    /**
     * The ALPN names a cluster offers its hosts, as Istio's {@code istio.alpn} filter makes them
     * for HTTP: a mesh mTLS cluster ({@code istio} among {@code alpn}) offers
     * {@code istio-h2, istio, h2} or {@code istio-http/1.1, istio, http/1.1} by its protocol
     * ({@code h2}), which tells the workload's sidecar that HTTP comes (and not the TCP metadata
     * exchange {@code istio-peer-exchange} asks for, which the gateway does not speak).
     */
    static List<String> alpnOverride(List<String> alpn, boolean h2) {
        if (!alpn.contains(ALPN_ISTIO)) {
            return alpn;
        }
        return h2 ? List.of("istio-h2", ALPN_ISTIO, "h2") : List.of("istio-http/1.1", ALPN_ISTIO, "http/1.1");
    }

    /** Accepts a cluster's {@code filters} when each is Istio's TCP metadata exchange, else refuses the cluster. */
    static void clusterFilters(List<io.envoyproxy.envoy.config.cluster.v3.Filter> filters, String at) {
        for (int i = 0; i < filters.size(); i++) {
            io.envoyproxy.envoy.config.cluster.v3.Filter filter = filters.get(i);
            String where = at + "[" + i + "]";
            Fields.allowOnly(filter, where, Set.of("name", "typed_config"));
            if (!TCP_METADATA_EXCHANGE.equals(typedStructUrl(filter.getTypedConfig()))) {
                throw new XdsRejection(where + ": '" + filter.getName() + "' with typed_config "
                        + filter.getTypedConfig().getTypeUrl() + " not supported (supported: " + METADATA_EXCHANGE
                        + ", a TypedStruct of " + TCP_METADATA_EXCHANGE + ", accepted as a no-op)");
            }
        }
        if (!filters.isEmpty()) {
            accepted("cluster filter " + METADATA_EXCHANGE, "exchanges Istio's peer labels with mesh workloads for"
                    + " its telemetry");
        }
    }

    /**
     * Accepts a cluster's or route's {@code metadata} when it holds only filter metadata of the
     * namespaces known to be telemetry.
     */
    static void telemetryMetadata(Metadata metadata, String at) {
        Fields.allowOnly(metadata, at, Set.of("filter_metadata"));
        for (String namespace : metadata.getFilterMetadataMap().keySet()) {
            String why = CLUSTER_METADATA.get(namespace);
            if (why == null) {
                throw new XdsRejection(at + ".filter_metadata['" + namespace + "']: not supported (supported: "
                        + CLUSTER_METADATA.keySet() + ")");
            }
            accepted("filter_metadata '" + namespace + "'", why);
        }
    }

    /** Logs, once per process, that {@code what} was accepted without effect, and {@code why}. */
    static void accepted(String what, String why) {
        if (LOGGED.add(what)) {
            LOG.info("xDS: {} accepted without effect: it {} (logged once)", what, why);
        }
    }

    /** The type URL inside a {@code TypedStruct} (xds.type.v3 or udpa.type.v1), or null when {@code config} is none. */
    private static String typedStructUrl(Any config) {
        try {
            if (config.is(com.github.xds.type.v3.TypedStruct.class)) {
                return config.unpack(com.github.xds.type.v3.TypedStruct.class).getTypeUrl();
            }
            if (config.is(com.github.udpa.udpa.type.v1.TypedStruct.class)) {
                return config.unpack(com.github.udpa.udpa.type.v1.TypedStruct.class).getTypeUrl();
            }
        } catch (InvalidProtocolBufferException e) {
            return null;
        }
        return null;
    }
}
