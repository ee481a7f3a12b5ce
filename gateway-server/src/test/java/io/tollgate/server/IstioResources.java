package io.tollgate.server;

import com.google.protobuf.Any;
import com.google.protobuf.BoolValue;
import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import com.google.protobuf.ListValue;
import com.google.protobuf.Message;
import com.google.protobuf.Struct;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ApiConfigSource;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.GrpcService;
import io.envoyproxy.envoy.config.core.v3.TransportSocket;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Http1ProtocolOptions;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.core.v3.TrafficDirection;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Decorator;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.Cors;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.grpc_stats.v3.FilterConfig;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.RequestIDExtension;
import io.envoyproxy.envoy.extensions.request_id.uuid.v3.UuidRequestIdConfig;
import io.envoyproxy.envoy.extensions.retry.host.previous_hosts.v3.PreviousHostsPredicate;
import io.envoyproxy.envoy.extensions.transport_sockets.raw_buffer.v3.RawBuffer;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateValidationContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.SdsSecretConfig;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.envoyproxy.envoy.type.v3.Percent;
import java.util.List;
import java.util.Map;

/**
 * The resources istiod (1.29 to 1.31, read from its source: the gateway listener, cluster,
 * route and endpoint builders of pilot/pkg/networking/core and pilot/pkg/xds) sends a node of
 * type {@code router} for a {@code Gateway} on one HTTP port, a {@code VirtualService} splitting
 * {@code /} between two {@code ServiceEntry} hosts and sending {@code /b} to a third, and
 * STATIC-resolution ServiceEntries on 127.0.0.1, with mesh defaults but for
 * {@code pathNormalization: NONE} (see {@link #gatewayListener}).
 */
final class IstioResources {

    static final String ROUTE_NAME = "http.10080";

    private static final ConfigSource ADS = ConfigSource.newBuilder().setAds(AggregatedConfigSource.getDefaultInstance())
            .setInitialFetchTimeout(Duration.getDefaultInstance()).setResourceApiVersion(ApiVersion.V3).build();
    private static final UInt32Value MAX_UINT32 = UInt32Value.of(-1);

    private IstioResources() {
    }

    /** Istio's name of the cluster of {@code host}'s port 80. */
    static String clusterName(String host) {
        return "outbound|80||" + host;
    }

    /** An EDS cluster for a ServiceEntry host, as istiod builds it for a gateway. */
    static Cluster cluster(String host) {
        String name = clusterName(host);
        Struct service = struct(Map.of("host", string(host), "name", string(host), "namespace", string("istio-system")));
        return Cluster.newBuilder().setName(name).setType(Cluster.DiscoveryType.EDS)
                .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder().setEdsConfig(ADS).setServiceName(name))
                .setConnectTimeout(Duration.newBuilder().setSeconds(10))
                .setLbPolicy(Cluster.LbPolicy.LEAST_REQUEST)
                .setCircuitBreakers(CircuitBreakers.newBuilder().addThresholds(CircuitBreakers.Thresholds.newBuilder()
                        .setMaxConnections(MAX_UINT32).setMaxPendingRequests(MAX_UINT32).setMaxRequests(MAX_UINT32)
                        .setMaxRetries(MAX_UINT32).setTrackRemaining(true)))
                .setCommonLbConfig(Cluster.CommonLbConfig.getDefaultInstance())
                .setAltStatName(name + ";")
                .setMetadata(Metadata.newBuilder().putFilterMetadata("istio", struct(Map.of("services",
                        Value.newBuilder().setListValue(ListValue.newBuilder().addValues(Value.newBuilder()
                                .setStructValue(service))).build()))))
                .addFilters(io.envoyproxy.envoy.config.cluster.v3.Filter.newBuilder().setName("istio.metadata_exchange")
                        .setTypedConfig(typedStruct("type.googleapis.com/envoy.tcp.metadataexchange.config.MetadataExchange",
                                Map.of("protocol", string("istio-peer-exchange"),
                                        "enable_discovery", Value.newBuilder().setBoolValue(true).build()))))
                .build();
    }

    /**
     * {@code host}'s cluster with Istio's automatic mutual TLS, as istiod builds it: TLS to the
     * endpoints labelled {@code tlsMode: istio}, with the SDS secrets {@code default} and
     * {@code ROOTCA} of istio-agent's {@code sds-grpc} server, the workloads' identities
     * {@code subjectAltNames}, Istio's ALPN and SNI; cleartext to the other endpoints.
     */
    static Cluster meshCluster(String host, List<String> subjectAltNames) {
        ConfigSource agent = ConfigSource.newBuilder().setApiConfigSource(ApiConfigSource.newBuilder()
                .setApiType(ApiConfigSource.ApiType.GRPC).setSetNodeOnFirstMessageOnly(true)
                .setTransportApiVersion(ApiVersion.V3).addGrpcServices(GrpcService.newBuilder()
                        .setEnvoyGrpc(GrpcService.EnvoyGrpc.newBuilder().setClusterName("sds-grpc"))))
                .setResourceApiVersion(ApiVersion.V3).build();
        CertificateValidationContext identities = CertificateValidationContext.newBuilder()
                .addAllMatchSubjectAltNames(subjectAltNames.stream()
                        .map(n -> StringMatcher.newBuilder().setExact(n).build()).toList()).build();
        UpstreamTlsContext tls = UpstreamTlsContext.newBuilder()
                .setSni("outbound_.80_._." + host)
                .setCommonTlsContext(CommonTlsContext.newBuilder()
                        .addTlsCertificateSdsSecretConfigs(SdsSecretConfig.newBuilder().setName("default")
                                .setSdsConfig(agent))
                        .setCombinedValidationContext(CommonTlsContext.CombinedCertificateValidationContext.newBuilder()
                                .setDefaultValidationContext(identities)
                                .setValidationContextSdsSecretConfig(SdsSecretConfig.newBuilder().setName("ROOTCA")
                                        .setSdsConfig(agent)))
                        .addAlpnProtocols("istio-peer-exchange").addAlpnProtocols("istio"))
                .build();
        return cluster(host).toBuilder()
                .addTransportSocketMatches(Cluster.TransportSocketMatch.newBuilder().setName("tlsMode-istio")
                        .setMatch(struct(Map.of("tlsMode", string("istio"))))
                        .setTransportSocket(TransportSocket.newBuilder().setName("envoy.transport_sockets.tls")
                                .setTypedConfig(Any.pack(tls))))
                .addTransportSocketMatches(Cluster.TransportSocketMatch.newBuilder().setName("tlsMode-disabled")
                        .setMatch(Struct.getDefaultInstance())
                        .setTransportSocket(TransportSocket.newBuilder().setName("envoy.transport_sockets.raw_buffer")
                                .setTypedConfig(Any.pack(RawBuffer.getDefaultInstance()))))
                .build();
    }

    /** {@link #endpoints}, the workload labelled as having a sidecar: {@code tlsMode: istio}. */
    static ClusterLoadAssignment meshEndpoints(String host, int port) {
        ClusterLoadAssignment plain = endpoints(host, port);
        LbEndpoint endpoint = plain.getEndpoints(0).getLbEndpoints(0);
        return plain.toBuilder().setEndpoints(0, plain.getEndpoints(0).toBuilder().setLbEndpoints(0, endpoint.toBuilder()
                .setMetadata(endpoint.getMetadata().toBuilder().putFilterMetadata("envoy.transport_socket_match",
                        struct(Map.of("tlsMode", string("istio"))))))).build();
    }

    /** Istio's {@code BlackHoleCluster}: STATIC without endpoints. */
    static Cluster blackHole() {
        return Cluster.newBuilder().setName("BlackHoleCluster").setType(Cluster.DiscoveryType.STATIC)
                .setConnectTimeout(Duration.newBuilder().setSeconds(10)).setLbPolicy(Cluster.LbPolicy.ROUND_ROBIN)
                .setAltStatName("BlackHoleCluster;").build();
    }

    /** The endpoints of {@code host}'s cluster: one workload entry on 127.0.0.1:{@code port}. */
    static ClusterLoadAssignment endpoints(String host, int port) {
        Metadata telemetry = Metadata.newBuilder().putFilterMetadata("istio",
                struct(Map.of("workload", string(";istio-system;" + host + ";;Kubernetes")))).build();
        return ClusterLoadAssignment.newBuilder().setClusterName(clusterName(host))
                .addEndpoints(LocalityLbEndpoints.newBuilder().setLocality(Locality.getDefaultInstance())
                        .setLoadBalancingWeight(UInt32Value.of(1))
                        .addLbEndpoints(LbEndpoint.newBuilder()
                                .setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder().setSocketAddress(
                                        SocketAddress.newBuilder().setAddress("127.0.0.1").setPortValue(port))))
                                .setHealthStatus(HealthStatus.HEALTHY).setMetadata(telemetry)
                                .setLoadBalancingWeight(UInt32Value.of(1))))
                .build();
    }

    /**
     * The gateway's listener on 127.0.0.1:{@code port}, its HTTP connection manager as istiod
     * builds it for a gateway, with {@code normalizePath} as the mesh's path normalization sets it
     * (true by default; false with {@code pathNormalization: NONE}).
     */
    static Listener gatewayListener(int port, boolean normalizePath) {
        HttpConnectionManager hcm = HttpConnectionManager.newBuilder()
                .setCodecType(HttpConnectionManager.CodecType.AUTO)
                .setStatPrefix("outbound_0.0.0.0_10080")
                .setRds(Rds.newBuilder().setConfigSource(ADS).setRouteConfigName(ROUTE_NAME))
                .addHttpFilters(HttpFilter.newBuilder().setName("istio.metadata_exchange").setTypedConfig(typedStruct(
                        "type.googleapis.com/io.istio.http.peer_metadata.Config", Map.of("upstream_discovery",
                                Value.newBuilder().setListValue(ListValue.newBuilder().addValues(Value.newBuilder()
                                        .setStructValue(struct(Map.of("istio_headers", Value.newBuilder()
                                                .setStructValue(Struct.getDefaultInstance()).build()))))).build()))))
                .addHttpFilters(filter("envoy.filters.http.grpc_stats", FilterConfig.newBuilder().setEmitFilterState(true)
                        .setStatsForAllMethods(BoolValue.of(false)).build()))
                .addHttpFilters(HttpFilter.newBuilder().setName("istio.alpn").setTypedConfig(Any.newBuilder()
                        .setTypeUrl("type.googleapis.com/istio.envoy.config.filter.http.alpn.v2alpha1.FilterConfig")
                        .setValue(alpnOverrides())))
                .addHttpFilters(filter("envoy.filters.http.fault", HTTPFault.getDefaultInstance()))
                .addHttpFilters(filter("envoy.filters.http.cors", Cors.getDefaultInstance()))
                .addHttpFilters(filter("envoy.filters.http.router", Router.getDefaultInstance()))
                .setTracing(HttpConnectionManager.Tracing.newBuilder().setClientSampling(percent(100))
                        .setRandomSampling(percent(1)).setOverallSampling(percent(100)))
                .setUseRemoteAddress(BoolValue.of(true))
                .setForwardClientCertDetails(HttpConnectionManager.ForwardClientCertDetails.SANITIZE_SET)
                .setSetCurrentClientCertDetails(HttpConnectionManager.SetCurrentClientCertDetails.newBuilder()
                        .setSubject(BoolValue.of(true)).setCert(true).setDns(true).setUri(true))
                .setServerName("istio-envoy")
                .setHttpProtocolOptions(Http1ProtocolOptions.getDefaultInstance())
                .addUpgradeConfigs(HttpConnectionManager.UpgradeConfig.newBuilder().setUpgradeType("websocket"))
                .setStreamIdleTimeout(Duration.getDefaultInstance())
                .setNormalizePath(BoolValue.of(normalizePath))
                .setPathWithEscapedSlashesAction(HttpConnectionManager.PathWithEscapedSlashesAction.KEEP_UNCHANGED)
                .setRequestIdExtension(RequestIDExtension.newBuilder().setTypedConfig(Any.pack(
                        UuidRequestIdConfig.newBuilder().setUseRequestIdForTraceSampling(BoolValue.of(true)).build())))
                .setProxy100Continue(true)
                .build();
        return Listener.newBuilder().setName("0.0.0.0_10080")
                .setAddress(Address.newBuilder().setSocketAddress(SocketAddress.newBuilder().setAddress("127.0.0.1")
                        .setPortValue(port)))
                .addFilterChains(FilterChain.newBuilder().addFilters(Filter.newBuilder()
                        .setName("envoy.filters.network.http_connection_manager").setTypedConfig(Any.pack(hcm)))
                        .setTransportSocketConnectTimeout(Duration.newBuilder().setSeconds(15)))
                .setTrafficDirection(TrafficDirection.OUTBOUND)
                .setMaxConnectionsToAcceptPerSocketEvent(UInt32Value.of(1))
                .build();
    }

    /**
     * The VirtualService's routes: {@code /b} to {@code b}'s host, {@code /} split 70/30 between
     * {@code first} and {@code second}, each with Istio's default retry policy, no timeout.
     */
    static RouteConfiguration routes(String first, String second, String b) {
        Route toB = Route.newBuilder()
                .setMatch(RouteMatch.newBuilder().setPrefix("/b").setCaseSensitive(BoolValue.of(true)))
                .setRoute(action().setCluster(clusterName(b)))
                .setMetadata(configMetadata())
                .setDecorator(Decorator.newBuilder().setOperation(b + ":80/b*"))
                .build();
        Route split = Route.newBuilder()
                .setMatch(RouteMatch.newBuilder().setPrefix("/").setCaseSensitive(BoolValue.of(true)))
                .setRoute(action().setWeightedClusters(WeightedCluster.newBuilder()
                        .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName(clusterName(first))
                                .setWeight(UInt32Value.of(70)))
                        .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName(clusterName(second))
                                .setWeight(UInt32Value.of(30)))))
                .setMetadata(configMetadata())
                .setDecorator(Decorator.newBuilder().setOperation("split:80/*"))
                .build();
        return RouteConfiguration.newBuilder().setName(ROUTE_NAME)
                .addVirtualHosts(VirtualHost.newBuilder().setName("*:10080").addDomains("*")
                        .addRoutes(toB).addRoutes(split).setIncludeRequestAttemptCount(true))
                .setValidateClusters(BoolValue.of(false))
                .setIgnorePortInHostMatching(true)
                .setMaxDirectResponseBodySizeBytes(UInt32Value.of(1024 * 1024))
                .build();
    }

    /** Istio's route action defaults: no timeout, its default retry policy. */
    private static RouteAction.Builder action() {
        return RouteAction.newBuilder().setTimeout(Duration.getDefaultInstance())
                .setMaxGrpcTimeout(Duration.getDefaultInstance())
                .setRetryPolicy(RetryPolicy.newBuilder()
                        .setRetryOn("connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes")
                        .setNumRetries(UInt32Value.of(2))
                        .addRetryHostPredicate(RetryPolicy.RetryHostPredicate.newBuilder()
                                .setName("envoy.retry_host_predicates.previous_hosts")
                                .setTypedConfig(Any.pack(PreviousHostsPredicate.getDefaultInstance())))
                        .setHostSelectionRetryMaxAttempts(5));
    }

    private static Metadata configMetadata() {
        return Metadata.newBuilder().putFilterMetadata("istio", struct(Map.of("config",
                string("/apis/networking.istio.io/v1/namespaces/istio-system/virtual-service/split")))).build();
    }

    /** What the four resource lists of a snapshot hold for the three hosts on the three ports. */
    record Snapshot(List<Cluster> clusters, List<ClusterLoadAssignment> endpoints, List<Listener> listeners,
            List<RouteConfiguration> routes) {
    }

    /** Everything istiod sends: hosts {@code a}, {@code b2} and {@code c} on their ports, the listener on {@code listenerPort}. */
    static Snapshot gateway(int a, int b2, int c, int listenerPort, boolean normalizePath) {
        return new Snapshot(
                List.of(cluster("a.example.com"), cluster("b.example.com"), cluster("c.example.com"), blackHole()),
                List.of(endpoints("a.example.com", a), endpoints("b.example.com", b2), endpoints("c.example.com", c)),
                List.of(gatewayListener(listenerPort, normalizePath)),
                List.of(routes("a.example.com", "b.example.com", "c.example.com")));
    }

    private static HttpFilter filter(String name, Message config) {
        return HttpFilter.newBuilder().setName(name).setTypedConfig(Any.pack(config)).build();
    }

    private static Any typedStruct(String typeUrl, Map<String, Value> fields) {
        return Any.pack(com.github.udpa.udpa.type.v1.TypedStruct.newBuilder().setTypeUrl(typeUrl)
                .setValue(struct(fields)).build());
    }

    /**
     * Istio's ALPN filter configuration (a message of Istio's own, not in Envoy's API): overrides for
     * HTTP/1.0 and HTTP/1.1, field 1 {@code alpn_override} of {@code upstream_protocol} (1) and
     * {@code alpn_override} (2) strings, as protobuf writes them.
     */
    private static ByteString alpnOverrides() {
        ByteString.Output out = ByteString.newOutput();
        try {
            com.google.protobuf.CodedOutputStream coded = com.google.protobuf.CodedOutputStream.newInstance(out);
            for (Object[] entry : new Object[][] {{0, "istio-http/1.0"}, {1, "istio-http/1.1"}}) {
                com.google.protobuf.ByteString.Output inner = ByteString.newOutput();
                com.google.protobuf.CodedOutputStream innerCoded = com.google.protobuf.CodedOutputStream.newInstance(inner);
                if ((int) entry[0] != 0) {
                    innerCoded.writeEnum(1, (int) entry[0]);
                }
                innerCoded.writeString(2, (String) entry[1]);
                innerCoded.flush();
                coded.writeBytes(1, inner.toByteString());
            }
            coded.flush();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteString();
    }

    private static Percent percent(double value) {
        return Percent.newBuilder().setValue(value).build();
    }

    private static Struct struct(Map<String, Value> fields) {
        return Struct.newBuilder().putAllFields(fields).build();
    }

    private static Value string(String text) {
        return Value.newBuilder().setStringValue(text).build();
    }
}
