package io.tollgate.xds.translation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.BoolValue;
import com.google.protobuf.Struct;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.UInt64Value;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.OutlierDetection;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.HealthCheck;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Http2ProtocolOptions;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.core.v3.ProxyProtocolPassThroughTLVs;
import io.envoyproxy.envoy.config.core.v3.RoutingPriority;
import io.envoyproxy.envoy.config.core.v3.RuntimeFractionalPercent;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.listener.v3.ListenerFilter;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.QueryParameterMatcher;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.extensions.filters.common.fault.v3.FaultDelay;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.FaultAbort;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.listener.proxy_protocol.v3.ProxyProtocol;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.envoyproxy.envoy.type.v3.TokenBucket;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.DnsConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ForwardActionConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.ProxyProtocolConfig;
import io.tollgate.core.config.RetryPolicyConfig;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.SubsetLbConfig;
import io.tollgate.core.config.SubsetSelectorConfig;
import io.tollgate.core.config.ValueMatcherConfig;
import io.tollgate.core.config.WeightedClusterConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TranslationTest {

    private static final ExtensionRegistry EXTENSIONS = ExtensionRegistry.defaults();
    private static final ConfigSource ADS = ConfigSource.newBuilder()
            .setAds(AggregatedConfigSource.getDefaultInstance()).build();

    private final ClusterTranslator clusters = new ClusterTranslator(EXTENSIONS, java.util.Map.of());
    private final ListenerTranslator listeners = new ListenerTranslator(EXTENSIONS);

    @Test
    void aClusterTakesEverySupportedSetting() {
        Cluster cluster = Cluster.newBuilder().setName("app").setType(Cluster.DiscoveryType.EDS)
                .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder().setEdsConfig(ADS).setServiceName("app-eds"))
                .setConnectTimeout(duration(250))
                .setLbPolicy(Cluster.LbPolicy.RING_HASH)
                .setRingHashLbConfig(Cluster.RingHashLbConfig.newBuilder()
                        .setMinimumRingSize(UInt64Value.of(2048)).setMaximumRingSize(UInt64Value.of(4096)))
                .addHealthChecks(HealthCheck.newBuilder().setTimeout(duration(1000)).setInterval(duration(5000))
                        .setHealthyThreshold(UInt32Value.of(2)).setUnhealthyThreshold(UInt32Value.of(3))
                        .setTcpHealthCheck(HealthCheck.TcpHealthCheck.getDefaultInstance()))
                .setOutlierDetection(OutlierDetection.newBuilder().setConsecutive5Xx(UInt32Value.of(7))
                        .setBaseEjectionTime(duration(10_000)).setMaxEjectionPercent(UInt32Value.of(30)))
                .setCircuitBreakers(CircuitBreakers.newBuilder().addThresholds(CircuitBreakers.Thresholds.newBuilder()
                        .setPriority(RoutingPriority.HIGH).setMaxRequests(UInt32Value.of(99))))
                .setLbSubsetConfig(Cluster.LbSubsetConfig.newBuilder()
                        .setFallbackPolicy(Cluster.LbSubsetConfig.LbSubsetFallbackPolicy.ANY_ENDPOINT)
                        .addSubsetSelectors(Cluster.LbSubsetConfig.LbSubsetSelector.newBuilder().addKeys("version")))
                .putTypedExtensionProtocolOptions("envoy.extensions.upstreams.http.v3.HttpProtocolOptions",
                        Any.pack(HttpProtocolOptions.newBuilder().setExplicitHttpConfig(
                                HttpProtocolOptions.ExplicitHttpConfig.newBuilder()
                                        .setHttp2ProtocolOptions(Http2ProtocolOptions.getDefaultInstance())).build()))
                .build();

        ClusterTranslator.Translated translated = clusters.translate(cluster);

        ClusterConfig config = translated.config();
        assertThat(translated.edsServiceName()).contains("app-eds");
        assertThat(config.lbPolicy()).isEqualTo("ring_hash");
        assertThat(config.loadBalancing().minimumRingSize()).isEqualTo(2048);
        assertThat(config.loadBalancing().maximumRingSize()).isEqualTo(4096);
        assertThat(config.connectTimeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.healthCheck().orElseThrow().type()).isEqualTo("tcp");
        assertThat(config.healthCheck().orElseThrow().interval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.outlierDetection().orElseThrow().consecutive5xx()).isEqualTo(7);
        assertThat(config.outlierDetection().orElseThrow().maxEjectionPercent()).isEqualTo(30);
        assertThat(config.circuitBreakers().highPriority().maxRequests()).isEqualTo(99);
        assertThat(config.subsetLbConfig()).contains(new SubsetLbConfig(SubsetLbConfig.FallbackPolicy.ANY_ENDPOINT,
                Map.of(), List.of(new SubsetSelectorConfig(List.of("version"), SubsetSelectorConfig.Fallback.NOT_DEFINED,
                        List.of())), Optional.empty()));
        assertThat(config.protocol()).isEqualTo(ClusterConfig.H2);
        assertThat(config.endpoints()).isEmpty();
    }

    @Test
    void endpointsCarryWeightsAndEnvoyLbLabelsAndUnhealthyOnesAreLeftOut() {
        ClusterLoadAssignment assignment = ClusterLoadAssignment.newBuilder().setClusterName("app")
                .addEndpoints(LocalityLbEndpoints.newBuilder()
                        .addLbEndpoints(endpoint(8001).setLoadBalancingWeight(UInt32Value.of(5))
                                .setMetadata(Metadata.newBuilder().putFilterMetadata("envoy.lb", Struct.newBuilder()
                                        .putFields("version", Value.newBuilder().setStringValue("v2").build())
                                        .putFields("canary", Value.newBuilder().setBoolValue(true).build()).build())))
                        .addLbEndpoints(endpoint(8002).setHealthStatus(HealthStatus.UNHEALTHY))
                        .addLbEndpoints(endpoint(8003).setHealthStatus(HealthStatus.HEALTHY)))
                .build();

        assertThat(new EndpointTranslator().translate(Any.pack(assignment)).endpoints()).containsExactly(
                new EndpointConfig("127.0.0.1", 8001, 5, Map.of("version", "v2", "canary", "true")),
                new EndpointConfig("127.0.0.1", 8003, 1, Map.of()));
    }

    @Test
    void anEndpointWhoseBytesDidNotChangeKeepsItsTranslationAndAChangedOneIsCheckedAgain() {
        EndpointTranslator translator = new EndpointTranslator();
        ClusterLoadAssignment first = ClusterLoadAssignment.newBuilder().setClusterName("app")
                .addEndpoints(LocalityLbEndpoints.newBuilder().addLbEndpoints(endpoint(8001)).addLbEndpoints(endpoint(8002)))
                .build();
        List<EndpointConfig> before = translator.translate(Any.pack(first)).endpoints();
        ClusterLoadAssignment second = first.toBuilder().setEndpoints(0, first.getEndpoints(0).toBuilder()
                .setLbEndpoints(1, endpoint(8003))).build();
        List<EndpointConfig> after = translator.translate(Any.pack(second)).endpoints();

        assertThat(after).containsExactly(new EndpointConfig("127.0.0.1", 8001, 1, Map.of()),
                new EndpointConfig("127.0.0.1", 8003, 1, Map.of()));
        assertThat(after.get(0)).isSameAs(before.get(0));
        assertThatThrownBy(() -> translator.translate(Any.pack(second.toBuilder().setEndpoints(0, second.getEndpoints(0)
                .toBuilder().addLbEndpoints(endpoint(8001))).build())))
                .hasMessageStartingWith("ClusterLoadAssignment 'app'.endpoints[0].lb_endpoints[2]: address:port"
                        + " '127.0.0.1:8001' is already used");
        assertThatThrownBy(() -> translator.translate(Any.pack(second.toBuilder().addEndpoints(LocalityLbEndpoints
                .newBuilder().addLbEndpoints(endpoint(8003))).build())))
                .hasMessage("ClusterLoadAssignment 'app'.endpoints[1].lb_endpoints[0]: address:port '127.0.0.1:8003' is"
                        + " already used by ClusterLoadAssignment 'app'.endpoints[0].lb_endpoints[1] (expected each"
                        + " address:port once)");
    }

    @Test
    void endpointsMovedToOtherPositionsKeepTheirTranslationAndARemovedAddressMayComeBackChanged() {
        EndpointTranslator translator = new EndpointTranslator();
        ClusterLoadAssignment first = ClusterLoadAssignment.newBuilder().setClusterName("app")
                .addEndpoints(LocalityLbEndpoints.newBuilder().addLbEndpoints(endpoint(8001)).addLbEndpoints(endpoint(8002))
                        .addLbEndpoints(endpoint(8003)))
                .build();
        List<EndpointConfig> before = translator.translate(Any.pack(first)).endpoints();
        ClusterLoadAssignment moved = ClusterLoadAssignment.newBuilder().setClusterName("app")
                .addEndpoints(LocalityLbEndpoints.newBuilder().addLbEndpoints(endpoint(8003)))
                .addEndpoints(LocalityLbEndpoints.newBuilder().addLbEndpoints(endpoint(8001)))
                .build();
        List<EndpointConfig> after = translator.translate(Any.pack(moved)).endpoints();

        assertThat(after).containsExactly(before.get(2), before.get(0));
        assertThat(after.get(0)).isSameAs(before.get(2));
        assertThat(after.get(1)).isSameAs(before.get(0));
        LbEndpoint heavier = endpoint(8002).setLoadBalancingWeight(UInt32Value.of(5)).build();
        ClusterLoadAssignment returned = moved.toBuilder().setEndpoints(1, moved.getEndpoints(1).toBuilder()
                .addLbEndpoints(heavier)).build();
        List<EndpointConfig> back = translator.translate(Any.pack(returned)).endpoints();
        assertThat(back).containsExactly(before.get(2), before.get(0), new EndpointConfig("127.0.0.1", 8002, 5, Map.of()));
    }

    @Test
    void routesTakeEverySupportedMatchAndAction() {
        RouteConfiguration routes = RouteConfiguration.newBuilder().setName("r").addVirtualHosts(VirtualHost.newBuilder()
                .setName("api").addDomains("api.example.com")
                .addRoutes(Route.newBuilder().setName("exact")
                        .setMatch(RouteMatch.newBuilder().setPath("/login")
                                .addHeaders(HeaderMatcher.newBuilder().setName("x-env")
                                        .setStringMatch(StringMatcher.newBuilder().setExact("prod")))
                                .addHeaders(HeaderMatcher.newBuilder().setName("x-debug").setPresentMatch(true)
                                        .setInvertMatch(true))
                                .addQueryParameters(QueryParameterMatcher.newBuilder().setName("v")
                                        .setStringMatch(StringMatcher.newBuilder()
                                                .setSafeRegex(RegexMatcher.newBuilder().setRegex("[0-9]+")))))
                        .setRoute(RouteAction.newBuilder().setCluster("auth").setHostRewriteLiteral("auth.internal")
                                .setTimeout(duration(3000))
                                .setMetadataMatch(Metadata.newBuilder().putFilterMetadata("envoy.lb", Struct.newBuilder()
                                        .putFields("version", Value.newBuilder().setStringValue("v2").build()).build()))
                                .setRetryPolicy(RetryPolicy.newBuilder().setRetryOn("5xx,connect-failure")
                                        .setNumRetries(UInt32Value.of(2)).setPerTryTimeout(duration(500)))))
                .addRoutes(Route.newBuilder()
                        .setMatch(RouteMatch.newBuilder().setSafeRegex(RegexMatcher.newBuilder().setRegex("/v[12]/.*")))
                        .setRoute(RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
                                .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("blue").setWeight(UInt32Value.of(90)))
                                .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("green").setWeight(UInt32Value.of(10))))))
                .addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/old"))
                        .setRoute(RouteAction.newBuilder().setCluster("legacy").setPrefixRewrite("/new"))))
                .build();

        RouteConfig config = RouteTranslator.translate(routes).config();

        List<RouteEntryConfig> entries = config.virtualHosts().get(0).routes();
        assertThat(config.virtualHosts().get(0).domains()).containsExactly("api.example.com");
        RouteEntryConfig exact = entries.get(0);
        assertThat(exact.match().path()).contains("/login");
        assertThat(exact.match().headers()).containsExactly(
                new ValueMatcherConfig("x-env", Optional.of("prod"), Optional.empty(), false, false),
                new ValueMatcherConfig("x-debug", Optional.empty(), Optional.empty(), true, true));
        assertThat(exact.match().queryParameters()).containsExactly(
                new ValueMatcherConfig("v", Optional.empty(), Optional.of("[0-9]+"), false, false));
        ForwardActionConfig forward = exact.forward().orElseThrow();
        assertThat(forward.cluster()).contains("auth");
        assertThat(forward.hostRewrite()).contains("auth.internal");
        assertThat(forward.timeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(forward.metadataMatch()).isEqualTo(Map.of("version", "v2"));
        RetryPolicyConfig retry = forward.retryPolicy().orElseThrow();
        assertThat(retry.retryOn()).isEqualTo(Set.of(RetryPolicyConfig.Condition.SERVER_ERROR,
                RetryPolicyConfig.Condition.CONNECT_FAILURE));
        assertThat(retry.numRetries()).isEqualTo(2);
        assertThat(retry.perTryTimeout()).contains(Duration.ofMillis(500));
        assertThat(entries.get(1).match().regex()).contains("/v[12]/.*");
        assertThat(entries.get(1).forward().orElseThrow().weightedClusters()).containsExactly(
                new WeightedClusterConfig("blue", 90), new WeightedClusterConfig("green", 10));
        assertThat(entries.get(2).forward().orElseThrow().prefixRewrite()).contains("/new");
    }

    @Test
    void aListenerWithAnHttpConnectionManagerServesHttp1AndH2cAndNamesItsRds() {
        ListenerTranslator.Translated translated = listeners.translate(listener(HttpConnectionManager.newBuilder()
                .setRds(Rds.newBuilder().setRouteConfigName("web-routes").setConfigSource(ADS))));

        ListenerConfig config = translated.config();
        assertThat(config.name()).isEqualTo("web");
        assertThat(config.port()).isEqualTo(8080);
        assertThat(config.protocols()).containsExactly("http1", "h2c");
        assertThat(translated.rdsName()).contains("web-routes");
    }

    @Test
    void envoysProxyProtocolListenerFilterIsTheListenersProxyProtocolTrustingEverySource() throws Exception {
        Listener web = listener(HttpConnectionManager.newBuilder()
                .setRds(Rds.newBuilder().setRouteConfigName("web-routes").setConfigSource(ADS)));
        ProxyProtocolConfig required = listeners.translate(web.toBuilder().addListenerFilters(ListenerFilter.newBuilder()
                .setName("envoy.filters.listener.proxy_protocol").setTypedConfig(Any.pack(ProxyProtocol.getDefaultInstance())))
                .build()).config().proxyProtocol().orElseThrow();
        assertThat(required.mode()).isEqualTo(ProxyProtocolConfig.Mode.REQUIRED);
        assertThat(required.trusts(InetAddress.getByName("203.0.113.9"))).isTrue();
        assertThat(required.trusts(InetAddress.getByName("2001:db8::1"))).isTrue();
        ProxyProtocolConfig optional = listeners.translate(web.toBuilder().addListenerFilters(ListenerFilter.newBuilder()
                .setName("envoy.filters.listener.proxy_protocol").setTypedConfig(Any.pack(ProxyProtocol.newBuilder()
                        .setAllowRequestsWithoutProxyProtocol(true).build()))).build()).config().proxyProtocol().orElseThrow();
        assertThat(optional.mode()).isEqualTo(ProxyProtocolConfig.Mode.OPTIONAL);
        assertThat(listeners.translate(web).config().proxyProtocol()).isEmpty();

        assertThatThrownBy(() -> listeners.translate(web.toBuilder().addListenerFilters(ListenerFilter.newBuilder()
                .setName("envoy.filters.listener.tls_inspector").setTypedConfig(Any.pack(Router.getDefaultInstance())))
                .build())).hasMessageContaining("Listener 'web'.listener_filters[0]: 'envoy.filters.listener.tls_inspector'");
        assertThatThrownBy(() -> listeners.translate(web.toBuilder().addListenerFilters(ListenerFilter.newBuilder()
                .setName("envoy.filters.listener.proxy_protocol").setTypedConfig(Any.pack(ProxyProtocol.newBuilder()
                        .setPassThroughTlvs(ProxyProtocolPassThroughTLVs.newBuilder().addTlvType(2)).build())))
                .build())).hasMessageContaining("pass_through_tlvs");
    }

    @Test
    void anUnsupportedFieldRejectsTheResourceNamingTheField() {
        assertThatThrownBy(() -> clusters.translate(Cluster.newBuilder().setName("app")
                .setLoadAssignment(ClusterLoadAssignment.newBuilder().setClusterName("app"))
                .setRespectDnsTtl(true).build()))
                .isInstanceOf(XdsRejection.class).hasMessageStartingWith("Cluster 'app'.respect_dns_ttl: not supported");
        assertThatThrownBy(() -> clusters.translate(Cluster.newBuilder().setName("dst")
                .setType(Cluster.DiscoveryType.ORIGINAL_DST).build()))
                .hasMessageStartingWith("Cluster 'dst'.type: ORIGINAL_DST not supported");
        assertThatThrownBy(() -> listeners.translate(listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance())
                .addHttpFilters(HttpFilter.newBuilder().setName("envoy.filters.http.cors")))))
                .hasMessageStartingWith("Listener 'web'.filter_chains[0].filters[0].typed_config.http_filters[0]: the"
                        + " router must be the last filter");
        assertThatThrownBy(() -> RouteTranslator.translate(RouteConfiguration.newBuilder().setName("r")
                .addVirtualHosts(VirtualHost.newBuilder().setName("all").addDomains("*")
                        .addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/")
                                .setCaseSensitive(BoolValue.of(false))).setRoute(RouteAction.newBuilder().setCluster("c"))))
                .build()))
                .hasMessageStartingWith("RouteConfiguration 'r'.virtual_hosts[0].routes[0].match.case_sensitive: not supported");
        assertThatThrownBy(() -> new EndpointTranslator().translate(Any.pack(ClusterLoadAssignment.newBuilder()
                .setClusterName("app").addEndpoints(LocalityLbEndpoints.newBuilder().setPriority(1)
                        .addLbEndpoints(endpoint(8001))).build())))
                .hasMessageStartingWith("ClusterLoadAssignment 'app'.endpoints[0].priority: not supported");
    }

    @Test
    void aResourceBreakingARuleOfTheFileIsRejectedWithTheLoadersMessage() {
        assertThatThrownBy(() -> RouteTranslator.translate(RouteConfiguration.newBuilder().setName("r")
                .addVirtualHosts(VirtualHost.newBuilder().setName("all").addDomains("*")
                        .addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("api"))
                                .setRoute(RouteAction.newBuilder().setCluster("c"))))
                .build()))
                .isInstanceOf(XdsRejection.class)
                .hasMessage("RouteConfiguration 'r': virtual_hosts[0].routes[0].match.prefix: must start with '/' (was 'api')");
        assertThatThrownBy(() -> clusters.translate(Cluster.newBuilder().setName("app")
                .setLoadAssignment(ClusterLoadAssignment.newBuilder().setClusterName("app")
                        .addEndpoints(LocalityLbEndpoints.newBuilder().addLbEndpoints(endpoint(8001))
                                .addLbEndpoints(endpoint(8001)))).build()))
                .hasMessage("Cluster 'app'.load_assignment.endpoints[0].lb_endpoints[1]: address:port '127.0.0.1:8001' is"
                        + " already used by Cluster 'app'.load_assignment.endpoints[0].lb_endpoints[0] (expected each"
                        + " address:port once)");
        assertThatThrownBy(() -> new EndpointTranslator().translate(Any.pack(ClusterLoadAssignment.newBuilder()
                .setClusterName("app").addEndpoints(LocalityLbEndpoints.newBuilder().addLbEndpoints(endpoint(0))).build())))
                .hasMessage("ClusterLoadAssignment 'app'.endpoints[0].lb_endpoints[0]: port: 0 (expected: 1..65535)");
    }

    @Test
    void faultAndLocalRateLimitBeforeTheRouterBecomeTheListenersStreamFilters() {
        HTTPFault fault = HTTPFault.newBuilder()
                .setDelay(FaultDelay.newBuilder().setFixedDelay(duration(250))
                        .setPercentage(FractionalPercent.newBuilder().setNumerator(25)))
                .setAbort(FaultAbort.newBuilder().setGrpcStatus(8)
                        .setPercentage(FractionalPercent.newBuilder().setNumerator(5)
                                .setDenominator(FractionalPercent.DenominatorType.TEN_THOUSAND)))
                .addHeaders(HeaderMatcher.newBuilder().setName("X-Fault")
                        .setStringMatch(StringMatcher.newBuilder().setExact("on")))
                .build();
        RuntimeFractionalPercent all = RuntimeFractionalPercent.newBuilder()
                .setDefaultValue(FractionalPercent.newBuilder().setNumerator(100)).build();
        LocalRateLimit limit = LocalRateLimit.newBuilder().setStatPrefix("web")
                .setTokenBucket(TokenBucket.newBuilder().setMaxTokens(10).setTokensPerFill(UInt32Value.of(5))
                        .setFillInterval(duration(1000)))
                .setFilterEnabled(all).setFilterEnforced(all).build();
        LocalRateLimit disabled = LocalRateLimit.newBuilder().setStatPrefix("off")
                .setTokenBucket(TokenBucket.newBuilder().setMaxTokens(1).setFillInterval(duration(1000))).build();

        ListenerConfig config = listeners.translate(listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance())
                .addHttpFilters(HttpFilter.newBuilder().setName("envoy.filters.http.fault").setTypedConfig(Any.pack(fault)))
                .addHttpFilters(HttpFilter.newBuilder().setName("limit").setTypedConfig(Any.pack(limit)))
                .addHttpFilters(HttpFilter.newBuilder().setName("unused").setTypedConfig(Any.pack(disabled))), true))
                .config();

        assertThat(config.filters()).extracting(f -> f.name()).containsExactly("fault", "local_rate_limit");
        assertThat(config.filters().get(0).settings().toString())
                .contains("fixed=PT0.25S", "percentage=25.0", "grpcStatus=8", "percentage=0.05", "x-fault=on");
        assertThatThrownBy(() -> listeners.translate(listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance())
                .addHttpFilters(HttpFilter.newBuilder().setName("lua").setTypedConfig(Any.pack(Router.getDefaultInstance())
                        .toBuilder().setTypeUrl("type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua"))), true)))
                .isInstanceOf(XdsRejection.class)
                .hasMessageContaining("http_filters[0]: 'lua' with typed_config")
                .hasMessageContaining("not supported");
        assertThatThrownBy(() -> listeners.translate(listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance())
                .addHttpFilters(HttpFilter.newBuilder().setName("fault").setTypedConfig(Any.pack(
                        fault.toBuilder().setMaxActiveFaults(UInt32Value.of(3)).build()))), true)))
                .hasMessageContaining("http_filters[0].typed_config.max_active_faults: not supported");
    }

    /** A listener whose connection manager ends its {@code http_filters} with the router. */
    static Listener listener(HttpConnectionManager.Builder hcm, boolean routerLast) {
        hcm.addHttpFilters(HttpFilter.newBuilder().setName("envoy.filters.http.router")
                .setTypedConfig(Any.pack(Router.getDefaultInstance())));
        return Listener.newBuilder().setName("web").setAddress(address(8080))
                .addFilterChains(FilterChain.newBuilder().addFilters(Filter.newBuilder()
                        .setName("envoy.filters.network.http_connection_manager").setTypedConfig(Any.pack(hcm.build()))))
                .build();
    }

    @Test
    void translatesDnsClustersWithTheirNamesAndSettings() {
        LbEndpoint.Builder named = LbEndpoint.newBuilder().setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder()
                .setSocketAddress(SocketAddress.newBuilder().setAddress("api.example.com").setPortValue(443))));
        Cluster strict = Cluster.newBuilder().setName("api").setType(Cluster.DiscoveryType.STRICT_DNS)
                .setLoadAssignment(ClusterLoadAssignment.newBuilder().setClusterName("api")
                        .addEndpoints(LocalityLbEndpoints.newBuilder().addLbEndpoints(named)))
                .setDnsRefreshRate(duration(30_000)).setRespectDnsTtl(true)
                .setDnsLookupFamily(Cluster.DnsLookupFamily.V4_ONLY)
                .setDnsFailureRefreshRate(Cluster.RefreshRate.newBuilder().setBaseInterval(duration(500))
                        .setMaxInterval(duration(8_000)))
                .addDnsResolvers(Address.newBuilder().setSocketAddress(SocketAddress.newBuilder()
                        .setAddress("10.0.0.53").setPortValue(5353)))
                .build();

        ClusterConfig config = clusters.translate(strict).config();
        assertThat(config.endpoints()).containsExactly(new EndpointConfig("api.example.com", 443, 1, Map.of()));
        DnsConfig dns = config.dns().orElseThrow();
        assertThat(dns.type()).isEqualTo(DnsConfig.Type.STRICT);
        assertThat(dns.refreshRate()).isEqualTo(Duration.ofSeconds(30));
        assertThat(dns.respectTtl()).isTrue();
        assertThat(dns.lookupFamily()).isEqualTo(DnsConfig.LookupFamily.V4_ONLY);
        assertThat(dns.failureBaseInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(dns.failureMaxInterval()).isEqualTo(Duration.ofSeconds(8));
        assertThat(dns.resolvers()).extracting(a -> a.getAddress().getHostAddress() + ":" + a.getPort())
                .containsExactly("10.0.0.53:5353");

        DnsConfig logical = clusters.translate(strict.toBuilder().setName("one").setType(Cluster.DiscoveryType.LOGICAL_DNS)
                .clearDnsResolvers().clearDnsLookupFamily().build()).config().dns().orElseThrow();
        assertThat(logical.type()).isEqualTo(DnsConfig.Type.LOGICAL);
        assertThat(logical.lookupFamily()).isEqualTo(DnsConfig.LookupFamily.AUTO);
        assertThat(logical.resolvers()).isEmpty();

        assertThatThrownBy(() -> clusters.translate(strict.toBuilder().setType(Cluster.DiscoveryType.LOGICAL_DNS)
                .setLoadAssignment(strict.getLoadAssignment().toBuilder().addEndpoints(LocalityLbEndpoints.newBuilder()
                        .addLbEndpoints(endpoint(80)))).build()))
                .isInstanceOf(XdsRejection.class)
                .hasMessageContaining("a logical_dns cluster has exactly one endpoint (found 2)");
        assertThatThrownBy(() -> clusters.translate(strict.toBuilder().setType(Cluster.DiscoveryType.STATIC).build()))
                .isInstanceOf(XdsRejection.class).hasMessageStartingWith("Cluster 'api'.dns_")
                .hasMessageContaining(": not supported");
    }

    private static Listener listener(HttpConnectionManager.Builder hcm) {
        hcm.addHttpFilters(0, HttpFilter.newBuilder().setName("envoy.filters.http.router")
                .setTypedConfig(Any.pack(Router.getDefaultInstance())));
        return Listener.newBuilder().setName("web").setAddress(address(8080))
                .addFilterChains(FilterChain.newBuilder().addFilters(Filter.newBuilder()
                        .setName("envoy.filters.network.http_connection_manager").setTypedConfig(Any.pack(hcm.build()))))
                .build();
    }

    private static LbEndpoint.Builder endpoint(int port) {
        return LbEndpoint.newBuilder().setEndpoint(Endpoint.newBuilder().setAddress(address(port)));
    }

    private static Address address(int port) {
        return Address.newBuilder().setSocketAddress(SocketAddress.newBuilder().setAddress("127.0.0.1").setPortValue(port))
                .build();
    }

    private static com.google.protobuf.Duration duration(long millis) {
        return com.google.protobuf.Duration.newBuilder().setSeconds(millis / 1000).setNanos((int) (millis % 1000) * 1_000_000)
                .build();
    }
}
