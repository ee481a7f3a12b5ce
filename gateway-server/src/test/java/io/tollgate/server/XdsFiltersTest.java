package io.tollgate.server;

import static io.tollgate.server.EnvoyResources.httpFilter;
import static io.tollgate.server.EnvoyResources.inlineListener;
import static io.tollgate.server.EnvoyResources.rdsListener;
import static io.tollgate.server.EnvoyResources.staticCluster;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.CidrRange;
import io.envoyproxy.envoy.config.core.v3.Http2ProtocolOptions;
import io.envoyproxy.envoy.config.core.v3.RuntimeFractionalPercent;
import io.envoyproxy.envoy.config.rbac.v3.Permission;
import io.envoyproxy.envoy.config.rbac.v3.Policy;
import io.envoyproxy.envoy.config.rbac.v3.Principal;
import io.envoyproxy.envoy.config.route.v3.FilterConfig;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.Cors;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.CorsPolicy;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.FaultAbort;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit;
import io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBAC;
import io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBACPerRoute;
import io.envoyproxy.envoy.type.matcher.v3.PathMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.envoyproxy.envoy.type.v3.TokenBucket;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.server.http2.EchoGrpc;
import io.tollgate.server.http2.EchoServer;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Envoy's HTTP filters pushed over xDS, seen by the JDK's client (and grpc-java's) through real
 * upstreams: RBAC (enforced and shadow), CORS policies of virtual hosts and routes, request mirroring to a
 * shadow cluster, and per-route overrides ({@code typed_per_filter_config}) that disable a filter
 * or change its settings; a setting the gateway's filter cannot express is refused with a NACK
 * naming the field while the last good configuration keeps serving.
 */
class XdsFiltersTest {

    private static final java.time.Duration LIMIT = java.time.Duration.ofSeconds(30);
    private static final String RBAC_NAME = "envoy.filters.http.rbac";
    private static final String CORS_NAME = "envoy.filters.http.cors";
    private static final String FAULT_NAME = "envoy.filters.http.fault";
    private static final String LIMIT_NAME = "envoy.filters.http.local_ratelimit";

    @RegisterExtension
    final XdsTestBed bed = new XdsTestBed();

    @Test
    void rbacRefusesWithA403ShadowRulesOnlyCountAndRoutesDisableOrReplaceThePolicies() throws Exception {
        int app = bed.upstream("app");
        int grpc = bed.resources.add(new EchoServer()).port();
        bed.startControlPlane();
        RBAC denyAdmin = RBAC.newBuilder().setRules(rules(io.envoyproxy.envoy.config.rbac.v3.RBAC.Action.DENY,
                Policy.newBuilder()
                        .addPermissions(Permission.newBuilder().setOrRules(Permission.Set.newBuilder()
                                .addRules(path("/admin"))
                                .addRules(Permission.newBuilder().setHeader(HeaderMatcher.newBuilder()
                                        .setName("X-Evil").setExactMatch("yes")))))
                        .addPrincipals(Principal.newBuilder().setDirectRemoteIp(CidrRange.newBuilder()
                                .setAddressPrefix("127.0.0.0").setPrefixLen(UInt32Value.of(8))))
                        .build())).build();
        RBACPerRoute aliceOnly = RBACPerRoute.newBuilder().setRbac(RBAC.newBuilder().setRules(rules(
                io.envoyproxy.envoy.config.rbac.v3.RBAC.Action.ALLOW, Policy.newBuilder()
                        .addPermissions(Permission.newBuilder().setAny(true))
                        .addPrincipals(Principal.newBuilder().setHeader(HeaderMatcher.newBuilder().setName("x-user")
                                .setStringMatch(StringMatcher.newBuilder().setExact("alice"))))
                        .build()))).build();
        RBAC shadowDenyAll = RBAC.newBuilder().setShadowRules(rules(io.envoyproxy.envoy.config.rbac.v3.RBAC.Action.DENY,
                Policy.newBuilder().addPermissions(Permission.newBuilder().setAny(true))
                        .addPrincipals(Principal.newBuilder().setAny(true)).build())).build();
        RouteConfiguration routes = RouteConfiguration.newBuilder().setName("web-routes")
                .addVirtualHosts(VirtualHost.newBuilder().setName("all").addDomains("*")
                        .addRoutes(route("/admin/open", "app").putTypedPerFilterConfig(RBAC_NAME, disabled()))
                        .addRoutes(route("/strict", "app").putTypedPerFilterConfig(RBAC_NAME, Any.pack(aliceOnly)))
                        .addRoutes(route("/test.Echo/", "grpc"))
                        .addRoutes(route("/", "app")))
                .build();
        Cluster h2 = staticCluster("grpc", grpc).toBuilder()
                .setHttp2ProtocolOptions(Http2ProtocolOptions.getDefaultInstance()).build();
        bed.controlPlane.push("1", List.of(staticCluster("app", app), h2), List.of(),
                List.of(rdsListener("web", 0, "web-routes", httpFilter(RBAC_NAME, denyAdmin)),
                        inlineListener("dry", 0, routes("dry-routes", "app"), httpFilter("dry-run", shadowDenyAll))),
                List.of(routes));
        startGateway(2);

        assertThat(bed.get("web", "/x", Map.of()).statusCode()).isEqualTo(200);
        HttpResponse<String> admin = bed.get("web", "/admin/users", Map.of());
        assertThat(admin.statusCode()).isEqualTo(403);
        assertThat(admin.headers().firstValue("x-tollgate-error")).hasValue("rbac_access_denied");
        assertThat(bed.get("web", "/x", Map.of("x-evil", "yes")).statusCode()).isEqualTo(403);
        assertThat(bed.get("web", "/admin/open/page", Map.of()).statusCode()).as("the route disables rbac").isEqualTo(200);
        assertThat(bed.get("web", "/strict", Map.of()).statusCode()).as("the route's own policies").isEqualTo(403);
        assertThat(bed.get("web", "/strict", Map.of("x-user", "alice")).statusCode()).isEqualTo(200);
        assertThat(bed.get("web", "/strict/admin", Map.of("x-user", "alice", "x-evil", "yes")).statusCode())
                .as("the listener's policies do not apply to the route").isEqualTo(200);

        ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", bed.gateway.port("web"),
                InsecureChannelCredentials.create()).build();
        bed.resources.add(() -> channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
        CallOptions deadline = CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS);
        assertThat(ClientCalls.blockingUnaryCall(channel, EchoGrpc.UNARY, deadline, "hello")).isEqualTo("hello");
        Metadata evil = new Metadata();
        evil.put(Metadata.Key.of("x-evil", Metadata.ASCII_STRING_MARSHALLER), "yes");
        Channel asEvil = ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(evil));
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(asEvil, EchoGrpc.UNARY, deadline, "hello"))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED));

        double shadowDenied = count(MetricNames.FILTER_RBAC_SHADOW_DENIED, "dry");
        assertThat(bed.get("dry", "/anything", Map.of()).statusCode()).isEqualTo(200);
        assertThat(count(MetricNames.FILTER_RBAC_SHADOW_DENIED, "dry")).isEqualTo(shadowDenied + 1);
        assertThat(count(MetricNames.FILTER_RBAC_DENIED, "dry")).isZero();
    }

    @Test
    void istiosDenyThenAllowRbacFiltersEachRunAndARouteDisablesThemByName() throws Exception {
        int app = bed.upstream("app");
        bed.startControlPlane();
        RBAC denyMallory = RBAC.newBuilder().setRules(rules(io.envoyproxy.envoy.config.rbac.v3.RBAC.Action.DENY,
                Policy.newBuilder().addPermissions(Permission.newBuilder().setAny(true))
                        .addPrincipals(header("x-user", "mallory")).build())).build();
        RBAC allowStaff = RBAC.newBuilder().setRules(rules(io.envoyproxy.envoy.config.rbac.v3.RBAC.Action.ALLOW,
                Policy.newBuilder().addPermissions(Permission.newBuilder().setAny(true))
                        .addPrincipals(header("x-team", "staff")).build())).build();
        Any off = Any.pack(RBACPerRoute.getDefaultInstance());
        RouteConfiguration sameName = RouteConfiguration.newBuilder().setName("istio-routes")
                .addVirtualHosts(VirtualHost.newBuilder().setName("all").addDomains("*")
                        .addRoutes(route("/public", "app").putTypedPerFilterConfig(RBAC_NAME, off))
                        .addRoutes(route("/", "app")))
                .build();
        RouteConfiguration ownNames = RouteConfiguration.newBuilder().setName("named-routes")
                .addVirtualHosts(VirtualHost.newBuilder().setName("all").addDomains("*")
                        .addRoutes(route("/public", "app").putTypedPerFilterConfig("istio.authorization.allow", off))
                        .addRoutes(route("/", "app")))
                .build();
        bed.controlPlane.push("1", List.of(staticCluster("app", app)), List.of(),
                List.of(rdsListener("istio", 0, "istio-routes", httpFilter(RBAC_NAME, denyMallory),
                                httpFilter(RBAC_NAME, allowStaff)),
                        inlineListener("named", 0, ownNames, httpFilter("istio.authorization.deny", denyMallory),
                                httpFilter("istio.authorization.allow", allowStaff))),
                List.of(sameName));
        startGateway(2);

        for (String listener : List.of("istio", "named")) {
            assertThat(bed.get(listener, "/x", Map.of("x-user", "bob", "x-team", "staff")).statusCode())
                    .as(listener + ": allowed").isEqualTo(200);
            HttpResponse<String> mallory = bed.get(listener, "/x", Map.of("x-user", "mallory", "x-team", "staff"));
            assertThat(mallory.statusCode()).as(listener + ": denied by the DENY filter").isEqualTo(403);
            assertThat(mallory.headers().firstValue("x-tollgate-error")).hasValue("rbac_access_denied");
            assertThat(bed.get(listener, "/x", Map.of("x-user", "bob", "x-team", "guests")).statusCode())
                    .as(listener + ": matched by no policy of the ALLOW filter").isEqualTo(403);
        }
        assertThat(bed.get("named", "/public", Map.of("x-user", "bob", "x-team", "guests")).statusCode())
                .as("the route disables istio.authorization.allow").isEqualTo(200);
        assertThat(bed.get("named", "/public", Map.of("x-user", "mallory", "x-team", "staff")).statusCode())
                .as("istio.authorization.deny still runs there").isEqualTo(403);
        assertThat(bed.get("istio", "/public", Map.of("x-user", "mallory", "x-team", "guests")).statusCode())
                .as("the route disables both filters of the name").isEqualTo(200);
    }

    @Test
    void corsPoliciesOfVirtualHostsAndRoutesAnswerPreflightsAndARouteCanDisableThem() throws Exception {
        int app = bed.upstream("app");
        bed.startControlPlane();
        CorsPolicy shop = CorsPolicy.newBuilder()
                .addAllowOriginStringMatch(StringMatcher.newBuilder().setExact("https://shop.example"))
                .setAllowMethods("GET, POST").setAllowHeaders("content-type").setMaxAge("600").build();
        io.envoyproxy.envoy.config.route.v3.CorsPolicy legacy = io.envoyproxy.envoy.config.route.v3.CorsPolicy.newBuilder()
                .addAllowOriginStringMatch(StringMatcher.newBuilder().setSuffix(".old.example"))
                .setAllowMethods("PUT").build();
        RouteConfiguration routes = RouteConfiguration.newBuilder().setName("web-routes")
                .addVirtualHosts(VirtualHost.newBuilder().setName("all").addDomains("*")
                        .putTypedPerFilterConfig(CORS_NAME, Any.pack(shop))
                        .addRoutes(route("/private", "app").putTypedPerFilterConfig(CORS_NAME, disabled()))
                        .addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/legacy"))
                                .setRoute(RouteAction.newBuilder().setCluster("app").setCors(legacy)))
                        .addRoutes(route("/", "app")))
                .build();
        bed.controlPlane.push("1", List.of(staticCluster("app", app)), List.of(),
                List.of(rdsListener("web", 0, "web-routes", httpFilter(CORS_NAME, Cors.getDefaultInstance()))),
                List.of(routes));
        startGateway(1);

        HttpResponse<String> preflight = preflight("/items", "https://shop.example");
        assertThat(preflight.statusCode()).isEqualTo(200);
        assertThat(preflight.body()).as("answered by the gateway, not the upstream").isEmpty();
        assertThat(preflight.headers().firstValue("access-control-allow-origin")).hasValue("https://shop.example");
        assertThat(preflight.headers().firstValue("access-control-allow-methods")).hasValue("GET, POST");
        assertThat(preflight.headers().firstValue("access-control-max-age")).hasValue("600");
        HttpResponse<String> actual = bed.get("web", "/items", Map.of("origin", "https://shop.example"));
        assertThat(actual.headers().firstValue("access-control-allow-origin")).hasValue("https://shop.example");
        assertThat(preflight("/items", "https://evil.example").body()).as("another origin goes upstream")
                .contains("upstream: app");

        HttpResponse<String> disabledHere = preflight("/private", "https://shop.example");
        assertThat(disabledHere.body()).contains("upstream: app");
        assertThat(disabledHere.headers().firstValue("access-control-allow-origin")).isEmpty();

        HttpResponse<String> legacyPreflight = preflight("/legacy", "https://a.old.example");
        assertThat(legacyPreflight.body()).isEmpty();
        assertThat(legacyPreflight.headers().firstValue("access-control-allow-methods")).hasValue("PUT");
        assertThat(preflight("/legacy", "https://shop.example").body()).as("the route's policy replaces the host's")
                .contains("upstream: app");
    }

    @Test
    void aRouteMirrorsToItsShadowClusterOnceTheClusterArrived() throws Exception {
        int app = bed.upstream("app");
        AtomicInteger shadowed = new AtomicInteger();
        HttpUpstream shadow = bed.resources.add(new HttpUpstream("shadow"));
        shadow.answer("/items", () -> {
            shadowed.incrementAndGet();
            return 200;
        });
        bed.startControlPlane();
        RouteConfiguration routes = RouteConfiguration.newBuilder().setName("web-routes")
                .addVirtualHosts(VirtualHost.newBuilder().setName("all").addDomains("*")
                        .addRoutes(route("/quiet", "app"))
                        .addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/"))
                                .setRoute(RouteAction.newBuilder().setCluster("app").addRequestMirrorPolicies(
                                        RouteAction.RequestMirrorPolicy.newBuilder().setCluster("shadow")
                                                .setRuntimeFraction(RuntimeFractionalPercent.newBuilder()
                                                        .setDefaultValue(FractionalPercent.newBuilder()
                                                                .setNumerator(100)))))))
                .build();
        bed.controlPlane.push("1", List.of(staticCluster("app", app)), List.of(),
                List.of(rdsListener("web", 0, "web-routes")), List.of(routes));
        bed.launchGateway(bed.controlPlane.bootstrap());
        Await.until("the routes acknowledged", LIMIT, () -> bed.controlPlane.acked(RouteConfiguration.class));
        assertThat(bed.gateway.snapshot().config().listeners()).as("waits for the shadow cluster").isEmpty();

        bed.controlPlane.push("2", List.of(staticCluster("app", app), staticCluster("shadow", shadow.port())), List.of(),
                List.of(rdsListener("web", 0, "web-routes")), List.of(routes));
        Await.until("the listener bound", LIMIT, () -> XdsTestBed.listenersBound(bed.gateway, 1));

        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = bed.get("web", "/items", Map.of());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("upstream: app");
        }
        Await.until("three copies at the shadow", LIMIT, () -> shadowed.get() == 3);
        assertThat(bed.get("web", "/quiet", Map.of()).statusCode()).isEqualTo(200);
        Await.until("the copies counted", LIMIT,
                () -> count("tollgate.filter.mirror.sent", "web", "cluster", "shadow") == 3);
        assertThat(shadowed.get()).as("the route without a mirror policy").isEqualTo(3);
    }

    @Test
    void virtualHostSettingsApplyToEveryRouteUnlessARouteGivesItsOwn() throws Exception {
        int app = bed.upstream("app");
        bed.startControlPlane();
        HTTPFault unavailable = abort(503);
        LocalRateLimit plenty = limit(1000);
        RouteConfiguration routes = RouteConfiguration.newBuilder().setName("web-routes")
                .addVirtualHosts(VirtualHost.newBuilder().setName("all").addDomains("*")
                        .putTypedPerFilterConfig(FAULT_NAME, disabled())
                        .addRoutes(route("/teapot", "app").putTypedPerFilterConfig(FAULT_NAME, Any.pack(abort(418))))
                        .addRoutes(route("/limited", "app").putTypedPerFilterConfig(LIMIT_NAME,
                                Any.pack(FilterConfig.newBuilder().setConfig(Any.pack(limit(1))).build())))
                        .addRoutes(route("/", "app")))
                .build();
        HttpFilterPair filters = new HttpFilterPair(unavailable, plenty);
        bed.controlPlane.push("1", List.of(staticCluster("app", app)), List.of(),
                List.of(rdsListener("web", 0, "web-routes", filters.fault(), filters.limit()),
                        inlineListener("plain", 0, routes("plain-routes", "app"), filters.fault(), filters.limit())),
                List.of(routes));
        startGateway(2);

        assertThat(bed.get("plain", "/x", Map.of()).statusCode()).as("the listener's fault").isEqualTo(503);
        assertThat(bed.get("web", "/x", Map.of()).statusCode()).as("disabled by the virtual host").isEqualTo(200);
        assertThat(bed.get("web", "/teapot", Map.of()).statusCode()).as("the route's own fault").isEqualTo(418);
        assertThat(bed.get("web", "/limited", Map.of()).statusCode()).isEqualTo(200);
        HttpResponse<String> limited = bed.get("web", "/limited", Map.of());
        assertThat(limited.statusCode()).as("the route's own bucket of one token").isEqualTo(429);
        assertThat(bed.get("web", "/x", Map.of()).statusCode()).as("the listener's bucket").isEqualTo(200);
    }

    @Test
    void aFilterSettingTheGatewayCannotExpressIsNackedNamingItAndTheLastGoodConfigurationServes() throws Exception {
        int app = bed.upstream("app");
        bed.startControlPlane();
        RBAC denyAdmin = RBAC.newBuilder().setRules(rules(io.envoyproxy.envoy.config.rbac.v3.RBAC.Action.DENY,
                Policy.newBuilder().addPermissions(path("/admin")).addPrincipals(Principal.newBuilder().setAny(true))
                        .build())).build();
        RouteConfiguration routes = routes("web-routes", "app");
        bed.controlPlane.push("1", List.of(staticCluster("app", app)), List.of(),
                List.of(rdsListener("web", 0, "web-routes", httpFilter(RBAC_NAME, denyAdmin))), List.of(routes));
        startGateway(1);
        assertThat(bed.get("web", "/admin", Map.of()).statusCode()).isEqualTo(403);

        RBAC byPort = RBAC.newBuilder().setRules(rules(io.envoyproxy.envoy.config.rbac.v3.RBAC.Action.DENY,
                Policy.newBuilder().addPermissions(Permission.newBuilder().setDestinationPort(8080))
                        .addPrincipals(Principal.newBuilder().setAny(true)).build())).build();
        bed.controlPlane.push("2", List.of(staticCluster("app", app)), List.of(),
                List.of(rdsListener("web", 0, "web-routes", httpFilter(RBAC_NAME, byPort))), List.of(routes));
        Await.until("a NACK of the listeners", LIMIT, () -> !bed.controlPlane.nacks().isEmpty());
        assertThat(bed.controlPlane.nacks().get(0).getErrorDetail().getMessage())
                .startsWith("Listener 'web'.filter_chains[0].filters[0]"
                + ".typed_config.http_filters[0].typed_config.rules.policies['p'].permissions[0].destination_port:"
                + " not supported");
        assertThat(bed.get("web", "/admin", Map.of()).statusCode()).as("version 1 serves").isEqualTo(403);
        assertThat(bed.get("web", "/x", Map.of()).statusCode()).isEqualTo(200);

        RouteConfiguration unknownFilter = routes.toBuilder().setVirtualHosts(0, routes.getVirtualHosts(0).toBuilder()
                .putTypedPerFilterConfig("envoy.filters.http.jwt_authn", disabled())).build();
        bed.controlPlane.push("3", List.of(staticCluster("app", app)), List.of(),
                List.of(rdsListener("web", 0, "web-routes", httpFilter(RBAC_NAME, denyAdmin))), List.of(unknownFilter));
        Await.until("a NACK of the routes", LIMIT, () -> bed.controlPlane.nacks().stream().anyMatch(n -> n.getTypeUrl().equals(
                "type.googleapis.com/envoy.config.route.v3.RouteConfiguration")));
        assertThat(bed.controlPlane.nacks().stream().filter(n -> n.getTypeUrl().endsWith("RouteConfiguration")).findFirst().orElseThrow()
                .getErrorDetail().getMessage()).isEqualTo("RouteConfiguration 'web-routes'.virtual_hosts[0]"
                        + ".typed_per_filter_config['envoy.filters.http.jwt_authn']: Listener 'web' has no HTTP filter"
                        + " named 'envoy.filters.http.jwt_authn' (its filters: [envoy.filters.http.rbac])");
        assertThat(bed.get("web", "/admin", Map.of()).statusCode()).as("still version 1").isEqualTo(403);
    }

    /** A fault filter and a local rate limit, in that order. */
    private record HttpFilterPair(HTTPFault faultConfig, LocalRateLimit limitConfig) {

        io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter fault() {
            return httpFilter(FAULT_NAME, faultConfig);
        }

        io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter limit() {
            return httpFilter(LIMIT_NAME, limitConfig);
        }
    }

    private static HTTPFault abort(int status) {
        return HTTPFault.newBuilder().setAbort(FaultAbort.newBuilder().setHttpStatus(status)).build();
    }

    private static LocalRateLimit limit(int tokens) {
        RuntimeFractionalPercent all = RuntimeFractionalPercent.newBuilder().setDefaultValue(
                FractionalPercent.newBuilder().setNumerator(100)).build();
        return LocalRateLimit.newBuilder().setStatPrefix("limit").setFilterEnabled(all).setFilterEnforced(all)
                .setTokenBucket(TokenBucket.newBuilder().setMaxTokens(tokens).setTokensPerFill(UInt32Value.of(tokens))
                        .setFillInterval(Duration.newBuilder().setSeconds(3600))).build();
    }

    private static io.envoyproxy.envoy.config.rbac.v3.RBAC rules(io.envoyproxy.envoy.config.rbac.v3.RBAC.Action action,
            Policy policy) {
        return io.envoyproxy.envoy.config.rbac.v3.RBAC.newBuilder().setAction(action).putPolicies("p", policy).build();
    }

    private static Principal header(String name, String exact) {
        return Principal.newBuilder().setHeader(HeaderMatcher.newBuilder().setName(name)
                .setStringMatch(StringMatcher.newBuilder().setExact(exact))).build();
    }

    private static Permission path(String prefix) {
        return Permission.newBuilder().setUrlPath(PathMatcher.newBuilder()
                .setPath(StringMatcher.newBuilder().setPrefix(prefix))).build();
    }

    private static Any disabled() {
        return Any.pack(FilterConfig.newBuilder().setDisabled(true).build());
    }

    private static Route.Builder route(String prefix, String cluster) {
        return Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix(prefix))
                .setRoute(RouteAction.newBuilder().setCluster(cluster));
    }

    private static RouteConfiguration routes(String name, String cluster) {
        return EnvoyResources.routes(name, Map.of("/", cluster));
    }

    private HttpResponse<String> preflight(String path, String origin) throws IOException, InterruptedException {
        return bed.send(HttpRequest.newBuilder(bed.uri("web", path))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).header("origin", origin)
                .header("access-control-request-method", "GET"));
    }

    private double count(String name, String listener, String... tags) {
        return bed.gateway.metrics().registry().find(name).tag(MetricNames.TAG_LISTENER, listener).tags(tags).counters()
                .stream().mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
    }

    private void startGateway(int listeners) throws Exception {
        bed.launchGateway(bed.controlPlane.bootstrap());
        Await.until("the listeners bound", LIMIT, () -> XdsTestBed.listenersBound(bed.gateway, listeners)
                || !bed.controlPlane.nacks().isEmpty());
        assertThat(bed.controlPlane.nacks()).extracting(n -> n.getErrorDetail().getMessage()).isEmpty();
    }
}
