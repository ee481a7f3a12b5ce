package io.tollgate.xds.translation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.BoolValue;
import com.google.protobuf.Duration;
import com.google.protobuf.Struct;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.core.v3.TypedExtensionConfig;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.network.dns_resolver.cares.v3.CaresDnsResolverConfig;
import io.envoyproxy.envoy.extensions.retry.host.omit_canary_hosts.v3.OmitCanaryHostsPredicate;
import io.tollgate.core.config.CircuitBreakerThresholdsConfig;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.HttpOptions;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.PathNormalization;
import io.tollgate.core.config.RetryPolicyConfig;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What istiod sends, field by field: what is applied becomes the gateway's setting, what is only
 * telemetry is accepted, what the gateway cannot do is refused naming the field, and the node's
 * metadata keeps its shape.
 */
class IstioTranslationTest {

    private static final ExtensionRegistry EXTENSIONS = ExtensionRegistry.defaults();
    private static final UInt32Value MAX_UINT32 = UInt32Value.of(-1);

    private final ClusterTranslator clusters = new ClusterTranslator(EXTENSIONS, java.util.Map.of());
    private final ListenerTranslator listeners = new ListenerTranslator(EXTENSIONS);

    @Test
    void unlimitedCircuitBreakersBecomeTheLargestLimitAndAnEmptyCommonLbConfigKeepsThePanicThreshold() {
        ClusterConfig config = clusters.translate(staticCluster("app").toBuilder()
                .setCircuitBreakers(CircuitBreakers.newBuilder().addThresholds(CircuitBreakers.Thresholds.newBuilder()
                        .setMaxConnections(MAX_UINT32).setMaxPendingRequests(MAX_UINT32).setMaxRequests(MAX_UINT32)
                        .setMaxRetries(MAX_UINT32).setTrackRemaining(true)))
                .setCommonLbConfig(Cluster.CommonLbConfig.getDefaultInstance())
                .setAltStatName("outbound|80||app;").build()).config();

        CircuitBreakerThresholdsConfig limits = config.circuitBreakers().defaultPriority();
        assertThat(List.of(limits.maxConnections(), limits.maxPendingRequests(), limits.maxRequests(), limits.maxRetries()))
                .containsOnly(1_000_000_000);
        assertThat(config.panicThresholdPercent()).as("Envoy's default, 50 %").isEqualTo(50);
    }

    @Test
    void clusterFiltersAndMetadataOtherThanIstiosTelemetryAreRefused() {
        assertThatThrownBy(() -> clusters.translate(staticCluster("app").toBuilder()
                .addFilters(io.envoyproxy.envoy.config.cluster.v3.Filter.newBuilder().setName("envoy.filters.upstream.x")
                        .setTypedConfig(Any.pack(Struct.getDefaultInstance()))).build()))
                .isInstanceOf(XdsRejection.class)
                .hasMessageStartingWith("Cluster 'app'.filters[0]: 'envoy.filters.upstream.x' with typed_config")
                .hasMessageContaining("supported: istio.metadata_exchange");
        assertThatThrownBy(() -> clusters.translate(staticCluster("app").toBuilder().setMetadata(Metadata.newBuilder()
                .putFilterMetadata("envoy.lb", Struct.getDefaultInstance())).build()))
                .hasMessageStartingWith("Cluster 'app'.metadata.filter_metadata['envoy.lb']: not supported");
        assertThatThrownBy(() -> clusters.translate(staticCluster("app").toBuilder().setType(Cluster.DiscoveryType.STRICT_DNS)
                .setTypedDnsResolverConfig(TypedExtensionConfig.newBuilder().setName("envoy.network.dns_resolver.cares")
                        .setTypedConfig(Any.pack(CaresDnsResolverConfig.newBuilder().addResolvers(Address.newBuilder()
                                .setSocketAddress(SocketAddress.newBuilder().setAddress("10.0.0.2").setPortValue(53)))
                                .build())))
                .build()))
                .hasMessageStartingWith("Cluster 'app'.typed_dns_resolver_config.typed_config.resolvers: not supported");
    }

    @Test
    void theServerNameAndClientCertificateSanitizingBecomeAHeadersFilterFirstOnTheChain() {
        ListenerConfig config = listeners.translate(TranslationTest.listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance())
                .setServerName("istio-envoy")
                .setForwardClientCertDetails(HttpConnectionManager.ForwardClientCertDetails.SANITIZE_SET)
                .setUseRemoteAddress(BoolValue.of(true))
                .setStreamIdleTimeout(Duration.getDefaultInstance()), true)).config();

        // what it does to requests and responses: XdsIstioTest, through the gateway
        assertThat(config.filters()).extracting(StreamFilterConfig::kind).containsExactly("headers");
    }

    @Test
    void pathNormalizationBecomesTheListenersHttpSettings() {
        ListenerConfig asIstioDefaults = listeners.translate(TranslationTest.listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance()).setNormalizePath(BoolValue.of(true))
                .setPathWithEscapedSlashesAction(HttpConnectionManager.PathWithEscapedSlashesAction.KEEP_UNCHANGED),
                true)).config();
        ListenerConfig decodeAndMerge = listeners.translate(TranslationTest.listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance()).setNormalizePath(BoolValue.of(true))
                .setMergeSlashes(true)
                .setPathWithEscapedSlashesAction(HttpConnectionManager.PathWithEscapedSlashesAction.UNESCAPE_AND_FORWARD),
                true)).config();
        ListenerConfig none = listeners.translate(TranslationTest.listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance()), true)).config();

        // what it does to requests: PathNormalizationTest and XdsIstioTest, through the gateway
        assertThat(asIstioDefaults.http().paths())
                .isEqualTo(new PathNormalization(true, false, PathNormalization.EscapedSlashes.KEEP_UNCHANGED));
        assertThat(decodeAndMerge.http().paths())
                .isEqualTo(new PathNormalization(true, true, PathNormalization.EscapedSlashes.UNESCAPE_AND_FORWARD));
        assertThat(none.http()).isEqualTo(HttpOptions.DEFAULTS);
    }

    @Test
    void connectionManagerSettingsTheGatewayCannotHonourAreRefusedNamingThem() {
        assertThatThrownBy(() -> listeners.translate(TranslationTest.listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance()).setUseRemoteAddress(BoolValue.of(false)), true)))
                .hasMessageContaining("typed_config.use_remote_address: false not supported");
        assertThatThrownBy(() -> listeners.translate(TranslationTest.listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance())
                .setStreamIdleTimeout(Duration.newBuilder().setSeconds(300)), true)))
                .hasMessageContaining("typed_config.stream_idle_timeout: 300000ms not supported");
        assertThatThrownBy(() -> listeners.translate(TranslationTest.listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance())
                .addUpgradeConfigs(HttpConnectionManager.UpgradeConfig.newBuilder().setUpgradeType("CONNECT")), true)))
                .hasMessageContaining("upgrade_configs[0].upgrade_type: 'CONNECT' not supported (supported: websocket)");
        assertThatThrownBy(() -> listeners.translate(TranslationTest.listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance())
                .addHttpFilters(HttpFilter.newBuilder().setName("istio.stats").setTypedConfig(Any.newBuilder()
                        .setTypeUrl("type.googleapis.com/stats.PluginConfig"))), true)))
                .hasMessageContaining("http_filters[0]: 'istio.stats' with typed_config type.googleapis.com/stats.PluginConfig"
                        + " not supported");
    }

    @Test
    void istiosDefaultRetryPolicyAndNoTimeoutTranslate() {
        RetryPolicy policy = RetryPolicy.newBuilder()
                .setRetryOn("connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes")
                .setNumRetries(UInt32Value.of(2)).setHostSelectionRetryMaxAttempts(5)
                .addRetryHostPredicate(RetryPolicy.RetryHostPredicate.newBuilder()
                        .setName("envoy.retry_host_predicates.previous_hosts"))
                .build();
        RouteTranslator.Translated routes = RouteTranslator.translate(routes(RouteAction.newBuilder().setCluster("c")
                .setTimeout(Duration.getDefaultInstance()).setMaxGrpcTimeout(Duration.getDefaultInstance())
                .setRetryPolicy(policy)));

        var forward = routes.config().virtualHosts().get(0).routes().get(0).forward().orElseThrow();
        assertThat(forward.timeout()).isEqualTo(java.time.Duration.ofHours(24));
        assertThat(forward.retryPolicy().orElseThrow().retryOn()).containsExactlyInAnyOrder(
                RetryPolicyConfig.Condition.CONNECT_FAILURE, RetryPolicyConfig.Condition.RESET,
                RetryPolicyConfig.Condition.UNAVAILABLE);

        assertThatThrownBy(() -> RouteTranslator.translate(routes(RouteAction.newBuilder().setCluster("c")
                .setRetryPolicy(policy.toBuilder().clearRetryHostPredicate().addRetryHostPredicate(
                        RetryPolicy.RetryHostPredicate.newBuilder().setName("envoy.retry_host_predicates.omit_canary_hosts")
                                .setTypedConfig(Any.pack(OmitCanaryHostsPredicate.getDefaultInstance())))))))
                .hasMessageContaining("retry_policy.retry_host_predicate[0]: 'envoy.retry_host_predicates.omit_canary_hosts'"
                        + " not supported");
    }

    private static RouteConfiguration routes(RouteAction.Builder action) {
        return RouteConfiguration.newBuilder().setName("r").addVirtualHosts(VirtualHost.newBuilder().setName("all")
                .addDomains("*").addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/"))
                        .setRoute(action))).build();
    }

    private static Cluster staticCluster(String name) {
        return Cluster.newBuilder().setName(name).setType(Cluster.DiscoveryType.STATIC)
                .setLoadAssignment(ClusterLoadAssignment.newBuilder().setClusterName(name)).build();
    }
}
