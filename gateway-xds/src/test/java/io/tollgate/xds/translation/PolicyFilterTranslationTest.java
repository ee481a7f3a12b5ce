package io.tollgate.xds.translation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.core.v3.GrpcService;
import io.envoyproxy.envoy.config.core.v3.HttpUri;
import io.envoyproxy.envoy.config.ratelimit.v3.RateLimitServiceConfig;
import io.envoyproxy.envoy.config.route.v3.RateLimit;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.AuthorizationResponse;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.BufferSettings;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.ExtAuthz;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.ExtAuthzPerRoute;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.HttpService;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.type.matcher.v3.ListStringMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.envoyproxy.envoy.type.v3.HttpStatus;
import io.envoyproxy.envoy.type.v3.StatusCode;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Envoy's {@code envoy.filters.http.ext_authz} and {@code envoy.filters.http.ratelimit}, with the
 * routes' {@code rate_limits} and {@code ExtAuthzPerRoute}, become the gateway's {@code ext_authz}
 * and {@code rate_limit} filters and their route settings; what the gateway cannot do is refused
 * naming the field.
 */
class PolicyFilterTranslationTest {

    private final ListenerTranslator listeners = new ListenerTranslator(ExtensionRegistry.defaults());

    private static GrpcService target(String target) {
        return GrpcService.newBuilder().setGoogleGrpc(GrpcService.GoogleGrpc.newBuilder().setTargetUri(target)
                .setStatPrefix("authz")).build();
    }

    private static final ExtAuthz AUTHZ = ExtAuthz.newBuilder()
            .setGrpcService(target("127.0.0.1:9001").toBuilder().setTimeout(
                    com.google.protobuf.Duration.newBuilder().setNanos(300_000_000)))
            .setFailureModeAllow(true)
            .setStatusOnError(HttpStatus.newBuilder().setCode(StatusCode.ServiceUnavailable))
            .setAllowedHeaders(ListStringMatcher.newBuilder().addPatterns(StringMatcher.newBuilder().setExact("Authorization")))
            .setWithRequestBody(BufferSettings.newBuilder().setMaxRequestBytes(8192).setAllowPartialMessage(true))
            .build();
    private static final io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit LIMIT =
            io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit.newBuilder()
                    .setDomain("edge").setFailureModeDeny(true)
                    .setRateLimitService(RateLimitServiceConfig.newBuilder().setGrpcService(target("127.0.0.1:8081")))
                    .build();

    @Test
    void extAuthzAndRateLimitBecomeTheGatewaysFiltersAndRoutesTheirSettings() {
        RateLimit byUser = RateLimit.newBuilder()
                .addActions(RateLimit.Action.newBuilder().setGenericKey(
                        RateLimit.Action.GenericKey.newBuilder().setDescriptorValue("api")))
                .addActions(RateLimit.Action.newBuilder().setRequestHeaders(RateLimit.Action.RequestHeaders.newBuilder()
                        .setHeaderName("x-user").setDescriptorKey("user")))
                .addActions(RateLimit.Action.newBuilder().setRemoteAddress(RateLimit.Action.RemoteAddress.getDefaultInstance()))
                .build();
        RouteConfiguration routes = RouteConfiguration.newBuilder().addVirtualHosts(VirtualHost.newBuilder()
                .setName("all").addDomains("*")
                .addRoutes(Route.newBuilder().setName("limited").setMatch(RouteMatch.newBuilder().setPrefix("/api"))
                        .setRoute(RouteAction.newBuilder().setCluster("app").addRateLimits(byUser)))
                .addRoutes(Route.newBuilder().setName("open").setMatch(RouteMatch.newBuilder().setPrefix("/"))
                        .setRoute(RouteAction.newBuilder().setCluster("app"))
                        .putTypedPerFilterConfig("envoy.filters.http.ext_authz", Any.pack(
                                ExtAuthzPerRoute.newBuilder().setDisabled(true).build()))))
                .build();

        ListenerConfig config = listeners.translate(TranslationTest.listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(routes)
                .addHttpFilters(filter("envoy.filters.http.ext_authz", Any.pack(AUTHZ)))
                .addHttpFilters(filter("envoy.filters.http.ratelimit", Any.pack(LIMIT))), true)).config();

        assertThat(config.filters()).extracting(StreamFilterConfig::name).containsExactly("ext_authz", "rate_limit");
        assertThat(config.filters().get(0).settings().toString()).contains("target=127.0.0.1:9001", "timeout=PT0.3S",
                "failureModeAllow=true", "statusOnError=503", "allowedHeaders=[authorization]",
                "BodySettings[maxRequestBytes=8192, allowPartialMessage=true, packAsBytes=false]");
        assertThat(config.filters().get(1).disabled()).as("it runs only on routes with rate_limits").isTrue();
        Map<String, RouteEntryConfig> byName = Map.of(
                "limited", config.routeConfig().virtualHosts().get(0).routes().get(0),
                "open", config.routeConfig().virtualHosts().get(0).routes().get(1));
        StreamFilterConfig limited = byName.get("limited").filters().get("rate_limit");
        assertThat(limited.disabled()).isFalse();
        assertThat(limited.settings().toString()).contains("target=127.0.0.1:8081", "timeout=PT0.02S", "domain=edge",
                "failureModeDeny=true", "GenericKey[key=generic_key, value=api]",
                "RequestHeader[header=x-user, key=user, skipIfAbsent=false]", "RemoteAddress[]");
        assertThat(byName.get("open").filters().get("ext_authz").disabled()).isTrue();
        assertThat(byName.get("open").filters()).doesNotContainKey("rate_limit");
    }

    @Test
    void httpServiceTakesItsUriPrefixAndHeaderLists() {
        ExtAuthz http = ExtAuthz.newBuilder().setHttpService(HttpService.newBuilder()
                .setServerUri(HttpUri.newBuilder().setUri("http://127.0.0.1:9002").setCluster("authz")
                        .setTimeout(com.google.protobuf.Duration.newBuilder().setSeconds(1)))
                .setPathPrefix("/check")
                .setAuthorizationResponse(AuthorizationResponse.newBuilder()
                        .setAllowedUpstreamHeaders(ListStringMatcher.newBuilder()
                                .addPatterns(StringMatcher.newBuilder().setExact("x-user")))))
                .build();

        ListenerConfig config = listeners.translate(TranslationTest.listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance())
                .addHttpFilters(filter("authz", Any.pack(http))), true)).config();

        assertThat(config.filters().get(0).settings().toString()).contains("serverUri=http://127.0.0.1:9002",
                "pathPrefix=/check", "timeout=PT1S", "allowedUpstreamHeaders=[x-user]");
    }

    @Test
    void whatTheGatewayCannotDoIsRefusedNamingTheField() {
        ExtAuthz byCluster = AUTHZ.toBuilder().setGrpcService(GrpcService.newBuilder().setEnvoyGrpc(
                GrpcService.EnvoyGrpc.newBuilder().setClusterName("authz"))).build();
        assertThatThrownBy(() -> listeners.translate(TranslationTest.listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance())
                .addHttpFilters(filter("authz", Any.pack(byCluster))), true)))
                .isInstanceOf(XdsRejection.class)
                .hasMessageContaining("http_filters[0].typed_config.grpc_service.envoy_grpc: cluster 'authz' not supported");

        RateLimit byCluster2 = RateLimit.newBuilder().addActions(RateLimit.Action.newBuilder()
                .setDestinationCluster(RateLimit.Action.DestinationCluster.getDefaultInstance())).build();
        RouteConfiguration routes = RouteConfiguration.newBuilder().addVirtualHosts(VirtualHost.newBuilder()
                .setName("all").addDomains("*").addAllRateLimits(List.of(byCluster2))
                .addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/"))
                        .setRoute(RouteAction.newBuilder().setCluster("app"))))
                .build();
        assertThatThrownBy(() -> listeners.translate(TranslationTest.listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(routes)
                .addHttpFilters(filter("envoy.filters.http.ratelimit", Any.pack(LIMIT))), true)))
                .isInstanceOf(XdsRejection.class)
                .hasMessageContaining("virtual_hosts[0].rate_limits[0].actions[0].destination_cluster: not supported");
    }

    private static HttpFilter filter(String name, Any config) {
        return HttpFilter.newBuilder().setName(name).setTypedConfig(config).build();
    }
}
