package io.tollgate.xds.translation;

import static io.tollgate.xds.translation.TranslationTest.listener;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.BoolValue;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.CidrRange;
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
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.Cors;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.CorsPolicy;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.FaultAbort;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBAC;
import io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBACPerRoute;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.type.matcher.v3.PathMatcher;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import org.junit.jupiter.api.Test;

/**
 * The translation of Envoy's RBAC and CORS filters, of per-route filter settings and of
 * request mirroring into the gateway's filters, and the NACKs of what they cannot express.
 */
class HttpFilterTranslationTest {

    private static final String RBAC_NAME = "envoy.filters.http.rbac";
    private final ListenerTranslator listeners = new ListenerTranslator(ExtensionRegistry.defaults());

    @Test
    void rbacTreesBecomeListsOfConjunctions() {
        Permission permission = Permission.newBuilder().setAndRules(Permission.Set.newBuilder()
                .addRules(Permission.newBuilder().setOrRules(Permission.Set.newBuilder()
                        .addRules(path("/a")).addRules(path("/b"))))
                .addRules(Permission.newBuilder().setHeader(HeaderMatcher.newBuilder().setName(":method")
                        .setExactMatch("GET")))
                .addRules(Permission.newBuilder().setNotRule(Permission.newBuilder().setHeader(
                        HeaderMatcher.newBuilder().setName("X-Debug").setPresentMatch(true)))))
                .build();
        Principal principal = Principal.newBuilder().setOrIds(Principal.Set.newBuilder()
                .addIds(Principal.newBuilder().setDirectRemoteIp(CidrRange.newBuilder().setAddressPrefix("10.0.0.0")
                        .setPrefixLen(UInt32Value.of(8))))
                .addIds(Principal.newBuilder().setSourceIp(CidrRange.newBuilder().setAddressPrefix("192.168.1.1")))
                .addIds(Principal.newBuilder().setAuthenticated(Principal.Authenticated.getDefaultInstance()))
                .addIds(Principal.newBuilder().setHeader(HeaderMatcher.newBuilder().setName(":authority")
                        .setStringMatch(StringMatcher.newBuilder().setSuffix(".example.com"))))).build();

        String settings = RbacTranslator.settings(rbac(permission, principal), "rbac").toString();

        assertThat(settings).isEqualTo("{\"action\":\"DENY\",\"policies\":[{\"name\":\"p\",\"permissions\":["
                + "{\"path\":{\"prefix\":\"/a\"},\"method\":{\"exact\":\"GET\"},\"header\":{\"name\":\"x-debug\","
                + "\"present\":true,\"invert\":true}},"
                + "{\"path\":{\"prefix\":\"/b\"},\"method\":{\"exact\":\"GET\"},\"header\":{\"name\":\"x-debug\","
                + "\"present\":true,\"invert\":true}}],"
                + "\"principals\":[{\"source_ip\":[\"10.0.0.0/8\"]},{\"source_ip\":[\"192.168.1.1/0\"]},"
                + "{\"authenticated\":{\"prefix\":\"\"}},{\"header\":{\"name\":\"host\",\"suffix\":\".example.com\"}}]}],"
                + "\"shadow\":false}");
        ListenerConfig config = listeners.translate(listener(HttpConnectionManager.newBuilder()
                .setRouteConfig(RouteConfiguration.getDefaultInstance())
                .addHttpFilters(filter(RBAC_NAME, rbac(permission, principal))), true)).config();
        assertThat(config.filters()).extracting(StreamFilterConfig::name).containsExactly("rbac");
    }

    @Test
    void rbacTheGatewayCannotExpressIsRefusedNamingTheField() {
        Permission any = Permission.newBuilder().setAny(true).build();
        Principal anyone = Principal.newBuilder().setAny(true).build();
        Permission twoHeaders = Permission.newBuilder().setAndRules(Permission.Set.newBuilder()
                .addRules(Permission.newBuilder().setHeader(HeaderMatcher.newBuilder().setName("a").setExactMatch("1")))
                .addRules(Permission.newBuilder().setHeader(HeaderMatcher.newBuilder().setName("b").setExactMatch("2"))))
                .build();
        assertThatThrownBy(() -> RbacTranslator.settings(rbac(twoHeaders, anyone), "r"))
                .hasMessage("r.rules.policies['p'].permissions[0].and_rules.rules: two header conditions in one"
                        + " conjunction (not supported: the gateway's rbac entries hold one condition of each kind)");
        assertThatThrownBy(() -> RbacTranslator.settings(rbac(any, Principal.newBuilder().setRemoteIp(
                CidrRange.newBuilder().setAddressPrefix("10.0.0.0")).build()), "r"))
                .hasMessageStartingWith("r.rules.policies['p'].principals[0].remote_ip: not supported");
        assertThatThrownBy(() -> RbacTranslator.settings(rbac(Permission.newBuilder().setUrlPath(PathMatcher.newBuilder()
                .setPath(StringMatcher.newBuilder().setSafeRegex(RegexMatcher.newBuilder().setRegex("/a.*")))).build(),
                anyone), "r"))
                .hasMessageStartingWith("r.rules.policies['p'].permissions[0].url_path.path.safe_regex: not supported");
        assertThatThrownBy(() -> RbacTranslator.settings(rbac(Permission.newBuilder().setNotRule(any).build(), anyone),
                "r")).hasMessage("r.rules.policies['p'].permissions[0].not_rule: not supported (supported: the negation"
                        + " of one header match)");
        RBAC both = rbac(any, anyone).toBuilder().setShadowRules(rbac(any, anyone).getRules()).build();
        assertThatThrownBy(() -> RbacTranslator.settings(both, "r")).hasMessageStartingWith("r.shadow_rules: set beside rules");
        RBAC log = rbac(any, anyone).toBuilder().setRules(rbac(any, anyone).getRules().toBuilder()
                .setAction(io.envoyproxy.envoy.config.rbac.v3.RBAC.Action.LOG)).build();
        assertThatThrownBy(() -> RbacTranslator.settings(log, "r")).hasMessageStartingWith("r.rules.action: LOG not supported");
        assertThat(RbacTranslator.settings(RBAC.getDefaultInstance(), "r")).as("no rules: does nothing").isNull();
    }

    @Test
    void severalFiltersOfOneKindKeepTheirOwnSettingsAndRouteSettingsGoByName() {
        Permission any = Permission.newBuilder().setAny(true).build();
        Principal anyone = Principal.newBuilder().setAny(true).build();
        RBAC deny = rbac(any, anyone);
        RBAC allow = deny.toBuilder().setRules(deny.getRules().toBuilder()
                .setAction(io.envoyproxy.envoy.config.rbac.v3.RBAC.Action.ALLOW)).build();
        Any off = Any.pack(RBACPerRoute.getDefaultInstance());

        ListenerConfig istio = translate(host(route("/open").putTypedPerFilterConfig(RBAC_NAME, off)),
                filter(RBAC_NAME, deny), filter(RBAC_NAME, allow));

        assertThat(istio.filters()).extracting(StreamFilterConfig::name, StreamFilterConfig::kind)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(RBAC_NAME, "rbac"),
                        org.assertj.core.groups.Tuple.tuple(RBAC_NAME, "rbac"));
        assertThat(istio.filters().get(0).settings().toString()).contains("DENY");
        assertThat(istio.filters().get(1).settings().toString()).contains("ALLOW");
        RouteEntryConfig open = istio.routeConfig().virtualHosts().get(0).routes().get(0);
        assertThat(open.filters()).as("for both filters of the name").containsOnlyKeys(RBAC_NAME);
        assertThat(open.filters().get(RBAC_NAME).disabled()).isTrue();

        ListenerConfig named = translate(host(route("/open").putTypedPerFilterConfig("istio.authorization.allow", off)),
                filter("fault", abort(503)), filter("istio.authorization.deny", deny),
                filter("istio.authorization.allow", allow));

        assertThat(named.filters()).extracting(StreamFilterConfig::name)
                .containsExactly("fault", "istio.authorization.deny", "istio.authorization.allow");
        assertThat(named.routeConfig().virtualHosts().get(0).routes().get(0).filters())
                .containsOnlyKeys("istio.authorization.allow");

        assertThatThrownBy(() -> translate(host(route("/")), filter("checks", deny), filter("checks", abort(503))))
                .hasMessageContaining("http_filters[1].name: 'checks' also names")
                .hasMessageContaining("a rbac filter (supported: filters of one name are of one kind");
        HttpFilter disabledAllow = filter(RBAC_NAME, allow).toBuilder().setDisabled(true).build();
        assertThatThrownBy(() -> translate(host(route("/").putTypedPerFilterConfig(RBAC_NAME,
                Any.pack(FilterConfig.getDefaultInstance()))), filter(RBAC_NAME, deny), disabledAllow))
                .hasMessageContaining("enables '" + RBAC_NAME + "' of Listener 'web', whose 2 filters of that name have"
                        + " settings of their own each");
    }

    @Test
    void corsPoliciesBecomeTheCorsFiltersSettings() {
        CorsPolicy policy = CorsPolicy.newBuilder()
                .addAllowOriginStringMatch(StringMatcher.newBuilder().setExact("https://a.example"))
                .addAllowOriginStringMatch(StringMatcher.newBuilder().setSafeRegex(RegexMatcher.newBuilder()
                        .setRegex("https://[a-z]+\\.b\\.example")))
                .setAllowMethods("GET").setAllowHeaders("x-token").setExposeHeaders("x-id").setMaxAge("60")
                .setAllowCredentials(BoolValue.of(true)).setForwardNotMatchingPreflights(BoolValue.of(true)).build();
        assertThat(CorsTranslator.settings(policy, "c").toString()).isEqualTo("{\"allow_origin\":[{\"exact\":"
                + "\"https://a.example\"},{\"regex\":\"https://[a-z]+\\\\.b\\\\.example\"}],\"allow_methods\":\"GET\","
                + "\"allow_headers\":\"x-token\",\"expose_headers\":\"x-id\",\"max_age\":60,\"allow_credentials\":true}");
        assertThat(CorsTranslator.settings(policy.toBuilder().setFilterEnabled(RuntimeFractionalPercent.newBuilder()
                .setDefaultValue(FractionalPercent.getDefaultInstance())).build(), "c")).as("0 %: off").isNull();
        assertThatThrownBy(() -> CorsTranslator.settings(policy.toBuilder().setMaxAge("a minute").build(), "c"))
                .hasMessage("c.max_age: 'a minute' is not a whole number of seconds");
        assertThatThrownBy(() -> CorsTranslator.settings(policy.toBuilder()
                .setForwardNotMatchingPreflights(BoolValue.of(false)).build(), "c"))
                .hasMessageStartingWith("c.forward_not_matching_preflights: false not supported");
        assertThatThrownBy(() -> CorsTranslator.settings(policy.toBuilder()
                .setShadowEnabled(RuntimeFractionalPercent.getDefaultInstance()).build(), "c"))
                .hasMessageStartingWith("c.shadow_enabled: not supported");
    }

    @Test
    void routesOfAnInlineRouteConfigurationOverrideTheListenersFiltersAndMirror() {
        VirtualHost host = VirtualHost.newBuilder().setName("all").addDomains("*")
                .putTypedPerFilterConfig("fault", Any.pack(FilterConfig.newBuilder().setDisabled(true).build()))
                .addRoutes(route("/teapot").putTypedPerFilterConfig("fault", Any.pack(abort(418))))
                .addRoutes(Route.newBuilder().setName("mirrored").setMatch(RouteMatch.newBuilder().setPrefix("/"))
                        .setRoute(RouteAction.newBuilder().setCluster("app").addRequestMirrorPolicies(
                                RouteAction.RequestMirrorPolicy.newBuilder().setCluster("shadow").setRuntimeFraction(
                                        RuntimeFractionalPercent.newBuilder().setDefaultValue(FractionalPercent
                                                .newBuilder().setNumerator(25))))))
                .build();

        ListenerConfig config = translate(host, filter("fault", abort(503)));

        assertThat(config.filters()).extracting(StreamFilterConfig::name, StreamFilterConfig::disabled)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("fault", false),
                        org.assertj.core.groups.Tuple.tuple("mirror", true));
        RouteEntryConfig teapot = config.routeConfig().virtualHosts().get(0).routes().get(0);
        assertThat(teapot.filters().get("fault").settings().toString()).contains("httpStatus=418");
        RouteEntryConfig mirrored = config.routeConfig().virtualHosts().get(0).routes().get(1);
        assertThat(mirrored.filters().get("fault").disabled()).as("from the virtual host").isTrue();
        assertThat(mirrored.filters().get("mirror").settings().toString()).contains("shadow", "250000");
    }

    @Test
    void anEmptyFilterConfigRunsTheFilterAsTheListenerConfiguredIt() {
        Any enable = Any.pack(FilterConfig.getDefaultInstance());
        VirtualHost host = VirtualHost.newBuilder().setName("all").addDomains("*")
                .putTypedPerFilterConfig("fault", Any.pack(FilterConfig.newBuilder().setDisabled(true).build()))
                .addRoutes(route("/on").putTypedPerFilterConfig("fault", enable).putTypedPerFilterConfig("teapot", enable))
                .addRoutes(route("/"))
                .build();
        HttpFilter teapot = filter("teapot", rbac(Permission.newBuilder().setAny(true).build(),
                Principal.newBuilder().setAny(true).build())).toBuilder().setDisabled(true).build();

        ListenerConfig config = translate(host, filter("fault", abort(503)), teapot);

        assertThat(config.filters()).extracting(StreamFilterConfig::name, StreamFilterConfig::disabled)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("fault", false),
                        org.assertj.core.groups.Tuple.tuple("rbac", true));
        RouteEntryConfig on = config.routeConfig().virtualHosts().get(0).routes().get(0);
        assertThat(on.filters()).as("fault as on the listener; rbac with the listener's settings").containsOnlyKeys("rbac");
        assertThat(on.filters().get("rbac").settings().toString()).contains("DENY");
        assertThat(config.routeConfig().virtualHosts().get(0).routes().get(1).filters().get("fault").disabled()).isTrue();
        assertThatThrownBy(() -> translate(host(route("/").putTypedPerFilterConfig("cors", enable)),
                filter("cors", Cors.getDefaultInstance())))
                .hasMessageEndingWith("typed_per_filter_config['cors']: enables 'cors' of Listener 'web', which has"
                        + " no settings of its own (give them in the FilterConfig's config)");
    }

    @Test
    void perRouteSettingsTheGatewayCannotExpressAreRefusedNamingWhereTheyWereGiven() {
        HttpFilter fault = filter("fault", abort(503));
        assertThatThrownBy(() -> translate(host(route("/").putTypedPerFilterConfig("nope",
                Any.pack(abort(418)))), fault))
                .hasMessageEndingWith("routes[0].typed_per_filter_config['nope']: Listener 'web' has no HTTP filter"
                        + " named 'nope' (its filters: [fault])");
        assertThatThrownBy(() -> translate(host(route("/").putTypedPerFilterConfig("fault",
                Any.pack(RBACPerRoute.newBuilder().setRbac(rbac(Permission.newBuilder().setAny(true).build(),
                        Principal.newBuilder().setAny(true).build())).build()))), fault))
                .hasMessageEndingWith("typed_per_filter_config['fault']: settings of a rbac filter, but 'fault' of"
                        + " Listener 'web' is a fault filter");
        assertThatThrownBy(() -> translate(host(route("/").putTypedPerFilterConfig("fault",
                Any.pack(Cors.getDefaultInstance()))), fault))
                .hasMessageContaining("typed_per_filter_config['fault']: type type.googleapis.com/"
                        + "envoy.extensions.filters.http.cors.v3.Cors not supported");
        assertThatThrownBy(() -> translate(host(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/"))
                .setRoute(RouteAction.newBuilder().setWeightedClusters(WeightedCluster.newBuilder()
                        .addClusters(WeightedCluster.ClusterWeight.newBuilder().setName("app")
                                .setWeight(UInt32Value.of(1))
                                .putTypedPerFilterConfig("fault", Any.pack(abort(418))))))), fault))
                .hasMessageContaining("weighted_clusters.clusters[0].typed_per_filter_config: not supported");
        RouteAction.RequestMirrorPolicy mirror = RouteAction.RequestMirrorPolicy.newBuilder().setCluster("s").build();
        assertThatThrownBy(() -> translate(host(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/"))
                .setRoute(RouteAction.newBuilder().setCluster("app").addRequestMirrorPolicies(mirror)
                        .addRequestMirrorPolicies(mirror))), fault))
                .hasMessageContaining("route.request_mirror_policies: 2 policies (supported: one)");
        assertThatThrownBy(() -> translate(host(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/"))
                .setRoute(RouteAction.newBuilder().setCluster("app").addRequestMirrorPolicies(mirror.toBuilder()
                        .setTraceSampled(BoolValue.of(false))))), fault))
                .hasMessageContaining("route.request_mirror_policies[0].trace_sampled: not supported");
        assertThatThrownBy(() -> translate(host(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/"))
                .setRoute(RouteAction.newBuilder().setCluster("app").setCors(
                        io.envoyproxy.envoy.config.route.v3.CorsPolicy.newBuilder().addAllowOriginStringMatch(
                                StringMatcher.newBuilder().setExact("https://a.example"))))), fault))
                .hasMessageEndingWith("route.cors: Listener 'web' has no CORS filter (envoy.filters.http.cors) to"
                        + " apply the policy");
    }

    @Test
    void routeConfigurationSettingsApplyToEveryVirtualHostUnlessItGivesItsOwn() {
        RouteConfiguration routes = RouteConfiguration.newBuilder()
                .putTypedPerFilterConfig("fault", Any.pack(abort(418)))
                .addVirtualHosts(VirtualHost.newBuilder().setName("a").addDomains("a.example").addRoutes(route("/")))
                .addVirtualHosts(VirtualHost.newBuilder().setName("b").addDomains("*").addRoutes(route("/"))
                        .putTypedPerFilterConfig("fault", Any.pack(FilterConfig.newBuilder().setDisabled(true).build())))
                .build();

        ListenerConfig config = translate(routes, filter("fault", abort(503)));

        assertThat(config.routeConfig().virtualHosts().get(0).routes().get(0).filters().get("fault").settings()
                .toString()).contains("httpStatus=418");
        assertThat(config.routeConfig().virtualHosts().get(1).routes().get(0).filters().get("fault").disabled()).isTrue();
    }

    private ListenerConfig translate(VirtualHost host, HttpFilter... filters) {
        return translate(RouteConfiguration.newBuilder().addVirtualHosts(host).build(), filters);
    }

    private ListenerConfig translate(RouteConfiguration routes, HttpFilter... filters) {
        HttpConnectionManager.Builder hcm = HttpConnectionManager.newBuilder().setRouteConfig(routes);
        for (HttpFilter filter : filters) {
            hcm.addHttpFilters(filter);
        }
        return listeners.translate(listener(hcm, true)).config();
    }

    private static VirtualHost host(Route.Builder route) {
        return VirtualHost.newBuilder().setName("all").addDomains("*").addRoutes(route).build();
    }

    private static Route.Builder route(String prefix) {
        return Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix(prefix))
                .setRoute(RouteAction.newBuilder().setCluster("app"));
    }

    private static HTTPFault abort(int status) {
        return HTTPFault.newBuilder().setAbort(FaultAbort.newBuilder().setHttpStatus(status)).build();
    }

    private static HttpFilter filter(String name, com.google.protobuf.Message config) {
        return HttpFilter.newBuilder().setName(name).setTypedConfig(Any.pack(config)).build();
    }

    private static Permission path(String prefix) {
        return Permission.newBuilder().setUrlPath(PathMatcher.newBuilder()
                .setPath(StringMatcher.newBuilder().setPrefix(prefix))).build();
    }

    private static RBAC rbac(Permission permission, Principal principal) {
        return RBAC.newBuilder().setRules(io.envoyproxy.envoy.config.rbac.v3.RBAC.newBuilder()
                .setAction(io.envoyproxy.envoy.config.rbac.v3.RBAC.Action.DENY)
                .putPolicies("p", Policy.newBuilder().addPermissions(permission).addPrincipals(principal).build()))
                .build();
    }
}
