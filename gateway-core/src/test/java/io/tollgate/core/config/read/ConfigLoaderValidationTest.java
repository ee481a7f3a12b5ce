package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.RouteEntryConfig;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderValidationTest {

    private static final String ROUTE = "listeners[0].route_config.virtual_hosts[0].routes";

    /** A valid configuration around the given routes (a YAML flow list) and clusters. */
    private static String config(String routes, String clusters) {
        return """
                listeners:
                  - name: http
                    route_config:
                      virtual_hosts:
                        - name: vh
                          domains: ["*"]
                          routes: %s
                clusters: %s
                """.formatted(routes, clusters);
    }

    private static String routes(String routes) {
        return config(routes, """
                [{ name: backend, endpoints: [{ address: 127.0.0.1, port: 9000 }] },
                 { name: other, endpoints: [{ address: 127.0.0.1, port: 9001 }] }]""");
    }

    private static String clusters(String clusters) {
        return config("[{ match: { prefix: / }, route: { cluster: backend } }]", clusters);
    }

    private static void assertRejected(String yaml, String message) {
        assertThatThrownBy(() -> ConfigLoader.parse(yaml))
                .isInstanceOf(ConfigException.class)
                .hasMessage(message);
    }

    @Test
    void acceptsTheTemplateItself() {
        GatewayConfig config = ConfigLoader.parse(routes("[{ match: { prefix: / }, route: { cluster: backend } }]"));

        assertThat(config.clusters()).hasSize(2);
    }

    @Test
    void namesThePathOfAPrefixWithoutLeadingSlash() {
        assertRejected(routes("""
                [{ match: { path: /a }, route: { cluster: backend } },
                 { match: { prefix: /b }, route: { cluster: backend } },
                 { match: { prefix: x }, route: { cluster: backend } }]"""),
                ROUTE + "[2].match.prefix: must start with '/' (was 'x')");
    }

    @Test
    void rejectsAnExactPathWithoutLeadingSlash() {
        assertRejected(routes("[{ match: { path: a }, route: { cluster: backend } }]"),
                ROUTE + "[0].match.path: must start with '/' (was 'a')");
    }

    @Test
    void rejectsUnknownFieldsAndListsTheKnownOnes() {
        assertRejected(routes("[{ match: { prefx: / }, route: { cluster: backend } }]"),
                ROUTE + "[0].match.prefx: unknown field (expected one of [headers, path, prefix, query_parameters, regex])");
        assertRejected(routes("[{ match: { prefix: / }, route: { cluster: backend } }]") + "clustrs: []\n",
                "clustrs: unknown field (expected one of [admin, clusters, config_watch, demo_upstream, drain, dynamic_resources, event_loops, listeners, node, overload, registries, upgrade])");
    }

    @Test
    void rejectsAKeyWrittenTwice() {
        assertThatThrownBy(() -> ConfigLoader.parse("event_loops: 1\nevent_loops: 2\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("<root>: not valid YAML at line 2, column ")
                .hasMessageContaining("Duplicate field 'event_loops'");
    }

    @Test
    void rejectsTextThatIsNotYaml() {
        assertThatThrownBy(() -> ConfigLoader.parse("listeners: [\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("<root>: not valid YAML at line ");
    }

    @Test
    void rejectsAnEmptyOrScalarDocument() {
        assertRejected("", "<root>: the configuration is empty");
        assertRejected("42", "<root>: must be a mapping");
    }

    @Test
    void rejectsDurationsWithoutAUnitOrTooLong() {
        assertRejected(clusters("[{ name: backend, connect_timeout: 5, endpoints: [] }]"),
                "clusters[0].connect_timeout: '5' is not a duration (expected an integer of at most 9 digits"
                        + " and a unit ms, s, m or h, e.g. 250ms, 15s, 2m, 1h)");
        assertRejected(clusters("[{ name: backend, connect_timeout: 1.5s, endpoints: [] }]"),
                "clusters[0].connect_timeout: '1.5s' is not a duration (expected an integer of at most 9 digits"
                        + " and a unit ms, s, m or h, e.g. 250ms, 15s, 2m, 1h)");
        assertRejected(clusters("[{ name: backend, idle_timeout: 99999999999999999999h, endpoints: [] }]"),
                "clusters[0].idle_timeout: '99999999999999999999h' is not a duration (expected an integer of at most"
                        + " 9 digits and a unit ms, s, m or h, e.g. 250ms, 15s, 2m, 1h)");
    }

    @Test
    void rejectsAZeroTimeout() {
        assertRejected(routes("[{ match: { prefix: / }, route: { cluster: backend, timeout: 0ms } }]"),
                ROUTE + "[0].route.timeout: must be positive");
    }

    @Test
    void readsEveryDurationUnit() {
        GatewayConfig config = ConfigLoader.parse(clusters("""
                [{ name: backend, connect_timeout: 250ms, idle_timeout: 2h, endpoints: [] },
                 { name: b, connect_timeout: 3m, idle_timeout: 15s, endpoints: [] }]"""));

        assertThat(config.clusters()).extracting(ClusterConfig::connectTimeout)
                .containsExactly(Duration.ofMillis(250), Duration.ofMinutes(3));
        assertThat(config.clusters()).extracting(ClusterConfig::idleTimeout)
                .containsExactly(Duration.ofHours(2), Duration.ofSeconds(15));
    }

    @Test
    void rejectsRoutesToUnknownClusters() {
        assertRejected(routes("""
                [{ match: { prefix: /a }, route: { cluster: backend } },
                 { match: { prefix: / }, route: { cluster: nope } }]"""),
                ROUTE + "[1].route.cluster: unknown cluster 'nope'");
        assertRejected(routes("""
                [{ match: { prefix: / }, route: { weighted_clusters: [{ name: backend }, { name: ghost }] } }]"""),
                ROUTE + "[0].route.weighted_clusters[1].name: unknown cluster 'ghost'");
    }

    @Test
    void rejectsDuplicateClusterAndEndpointNames() {
        assertRejected(clusters("[{ name: backend, endpoints: [] }, { name: backend, endpoints: [] }]"),
                "clusters[1]: name 'backend' is already used by clusters[0] (expected each name once)");
        assertRejected(clusters("""
                [{ name: backend, endpoints: [{ address: a, port: 1 }, { address: b, port: 1 }, { address: a, port: 1 }] }]"""),
                "clusters[0].endpoints[2]: address:port 'a:1' is already used by clusters[0].endpoints[0]"
                        + " (expected each address:port once)");
    }

    @Test
    void rejectsDuplicateListenerVirtualHostRouteAndWeightedClusterNames() {
        String listener = """
                  - name: http
                    route_config: { virtual_hosts: [] }
                """;
        assertRejected("listeners:\n" + listener + listener,
                "listeners[1]: name 'http' is already used by listeners[0] (expected each name once)");
        assertRejected("""
                listeners:
                  - name: http
                    route_config:
                      virtual_hosts:
                        - { name: vh, domains: [a], routes: [] }
                        - { name: vh, domains: [b], routes: [] }
                """, "listeners[0].route_config.virtual_hosts[1]: name 'vh' is already used by"
                + " listeners[0].route_config.virtual_hosts[0] (expected each name once)");
        assertRejected(routes("""
                [{ name: r, match: { prefix: /a }, route: { cluster: backend } },
                 { match: { prefix: /b }, route: { cluster: backend } },
                 { name: r, match: { prefix: / }, route: { cluster: backend } }]"""),
                ROUTE + "[2]: name 'r' is already used by " + ROUTE + "[0] (expected each name once)");
        assertRejected(routes("""
                [{ match: { prefix: / }, route: { weighted_clusters: [{ name: backend }, { name: backend }] } }]"""),
                ROUTE + "[0].route.weighted_clusters[1]: name 'backend' is already used by "
                        + ROUTE + "[0].route.weighted_clusters[0] (expected each name once)");
    }

    @Test
    void rejectsADomainServedTwice() {
        assertRejected("""
                listeners:
                  - name: http
                    route_config:
                      virtual_hosts:
                        - { name: a, domains: [x.com, "*"], routes: [] }
                        - { name: b, domains: [y.com, X.com], routes: [] }
                """, "listeners[0].route_config.virtual_hosts[1].domains[1]: domain 'x.com' is already served by"
                + " virtual_hosts[0] (expected each domain once)");
    }

    @Test
    void rejectsMalformedDomains() {
        for (String domain : new String[] {"**", "a.*.com", "*a*", ""}) {
            assertRejected("""
                    listeners:
                      - name: http
                        route_config:
                          virtual_hosts: [{ name: a, domains: ["%s"], routes: [] }]
                    """.formatted(domain), "listeners[0].route_config.virtual_hosts[0].domains[0]: '" + domain
                    + "' is not a domain (expected an exact name, *.suffix, prefix.* or *)");
        }
    }

    @Test
    void rejectsBadRegexesInPathsAndHeaders() {
        assertRejected(routes("[{ match: { regex: \"/a(\" }, route: { cluster: backend } }]"),
                ROUTE + "[0].match.regex: '/a(' is not a valid regex: missing closing )");
        assertRejected(routes("""
                [{ match: { prefix: /, headers: [{ name: x, regex: "[" }] }, route: { cluster: backend } }]"""),
                ROUTE + "[0].match.headers[0].regex: '[' is not a valid regex: missing closing ]");
    }

    @Test
    void rejectsRegexesThatNeedBacktracking() {
        assertRejected(routes("[{ match: { regex: \"/(a+)\\\\1\" }, route: { cluster: backend } }]"),
                ROUTE + "[0].match.regex: '/(a+)\\1' is not a valid regex: invalid escape sequence");
        assertRejected(routes("""
                [{ match: { prefix: /, headers: [{ name: x, regex: "(?=a)a" }] }, route: { cluster: backend } }]"""),
                ROUTE + "[0].match.headers[0].regex: '(?=a)a' is not a valid regex: invalid or unsupported Perl syntax");
    }

    @Test
    void rejectsRoutesWithBothOrNeitherActions() {
        assertRejected(routes("""
                [{ match: { prefix: / }, route: { cluster: backend }, direct_response: { status: 204 } }]"""),
                ROUTE + "[0]: needs exactly one of route, direct_response, redirect, rpc_call (found 2)");
        assertRejected(routes("[{ match: { prefix: / } }]"),
                ROUTE + "[0]: needs exactly one of route, direct_response, redirect, rpc_call (found 0)");
    }

    @Test
    void rejectsMatchesWithBothOrNeitherPathKinds() {
        assertRejected(routes("[{ match: { prefix: /, path: /a }, route: { cluster: backend } }]"),
                ROUTE + "[0].match: needs exactly one of path, prefix, regex (found 2)");
        assertRejected(routes("[{ match: {}, route: { cluster: backend } }]"),
                ROUTE + "[0].match: needs exactly one of path, prefix, regex (found 0)");
        assertRejected(routes("[{ route: { cluster: backend } }]"), ROUTE + "[0].match: required");
    }

    @Test
    void rejectsForwardsWithBothOrNeitherClusterKinds() {
        assertRejected(routes("""
                [{ match: { prefix: / }, route: { cluster: backend, weighted_clusters: [{ name: other }] } }]"""),
                ROUTE + "[0].route: needs exactly one of cluster, weighted_clusters");
        assertRejected(routes("[{ match: { prefix: / }, route: { timeout: 1s } }]"),
                ROUTE + "[0].route: needs exactly one of cluster, weighted_clusters");
    }

    @Test
    void rejectsRedirectCodesThatAreNotRedirects() {
        for (int code : new int[] {200, 300, 304, 305, 404}) {
            assertRejected(routes("[{ match: { prefix: / }, redirect: { response_code: " + code + " } }]"),
                    ROUTE + "[0].redirect.response_code: " + code + " (expected one of [301, 302, 303, 307, 308])");
        }
    }

    @Test
    void rejectsRedirectsThatContradictThemselves() {
        assertRejected(routes("[{ match: { prefix: / }, redirect: { path: /a, prefix_rewrite: /b } }]"),
                ROUTE + "[0].redirect: path and prefix_rewrite exclude each other");
        assertRejected(routes("[{ match: { prefix: / }, redirect: { path: a } }]"),
                ROUTE + "[0].redirect.path: must start with '/' (was 'a')");
        assertRejected(routes("[{ match: { prefix: / }, redirect: { scheme: ftp } }]"),
                ROUTE + "[0].redirect.scheme: 'ftp' (expected http or https)");
        assertRejected(routes("[{ match: { prefix: / }, redirect: { port: 0 } }]"),
                ROUTE + "[0].redirect.port: 0 (expected: 1..65535)");
    }

    @Test
    void rejectsPrefixRewritesOfRegexRoutes() {
        assertRejected(routes("[{ match: { regex: /a.* }, route: { cluster: backend, prefix_rewrite: /b } }]"),
                ROUTE + "[0].route.prefix_rewrite: needs a path or prefix match (the match is a regex)");
        assertRejected(routes("[{ match: { regex: /a.* }, redirect: { prefix_rewrite: /b } }]"),
                ROUTE + "[0].redirect.prefix_rewrite: needs a path or prefix match (the match is a regex)");
    }

    @Test
    void rejectsValueMatchersWithBothOrNeitherKinds() {
        assertRejected(routes("""
                [{ match: { prefix: /, query_parameters: [{ name: q, exact: a, present: true }] }, route: { cluster: backend } }]"""),
                ROUTE + "[0].match.query_parameters[0]: needs exactly one of exact, regex, present: true (found 2)");
        assertRejected(routes("""
                [{ match: { prefix: /, headers: [{ name: x, invert: true }] }, route: { cluster: backend } }]"""),
                ROUTE + "[0].match.headers[0]: needs exactly one of exact, regex, present: true (found 0)");
    }

    @Test
    void lowerCasesHeaderNamesButNotQueryParameterNames() {
        GatewayConfig config = ConfigLoader.parse(routes("""
                [{ match: { prefix: /, headers: [{ name: X-User, present: true }],
                            query_parameters: [{ name: Q, present: true }] },
                   route: { cluster: backend },
                   request_headers: { add: [{ name: X-Added, value: v }], remove: [X-Gone] } }]"""));

        RouteEntryConfig route = config.listeners().get(0).routeConfig().virtualHosts().get(0).routes().get(0);
        assertThat(route.match().headers().get(0).name()).isEqualTo("x-user");
        assertThat(route.match().queryParameters().get(0).name()).isEqualTo("Q");
        assertThat(route.requestHeaders().add().get(0).name()).isEqualTo("x-added");
        assertThat(route.requestHeaders().remove()).containsExactly("x-gone");
    }

    @Test
    void rejectsInvalidHeaderNames() {
        assertRejected(routes("""
                [{ match: { prefix: /, headers: [{ name: "a b", present: true }] }, route: { cluster: backend } }]"""),
                ROUTE + "[0].match.headers[0].name: 'a b' is not a valid header name");
        assertRejected(routes("""
                [{ match: { prefix: / }, route: { cluster: backend }, response_headers: { remove: [":status"] } }]"""),
                ROUTE + "[0].response_headers.remove[0]: ':status' is not a valid header name");
        assertRejected(routes("""
                [{ match: { prefix: / }, route: { cluster: backend }, request_headers: { remove: [""] } }]"""),
                ROUTE + "[0].request_headers.remove[0]: '' is not a valid header name");
    }

    @Test
    void rejectsEndpointsWithoutPortAndOutOfRangeNumbers() {
        assertRejected(clusters("[{ name: backend, endpoints: [{ address: a }] }]"),
                "clusters[0].endpoints[0].port: required");
        assertRejected(clusters("[{ name: backend, endpoints: [{ address: a, port: 70000 }] }]"),
                "clusters[0].endpoints[0].port: 70000 (expected: 1..65535)");
        assertRejected(clusters("[{ name: backend, endpoints: [{ address: a, port: 1, weight: 0 }] }]"),
                "clusters[0].endpoints[0].weight: 0 (expected: 1..1000000)");
        assertRejected(clusters("[{ name: backend, endpoints: [{ address: a, port: eighty }] }]"),
                "clusters[0].endpoints[0].port: must be an integer (expected: 1..65535)");
    }

    @Test
    void rejectsUnknownPoliciesAndProtocols() {
        assertRejected(clusters("[{ name: backend, lb_policy: fastest, endpoints: [] }]"),
                "clusters[0].lb_policy: unknown policy 'fastest' (expected one of [least_request, maglev, random, ring_hash, round_robin])");
        assertRejected("""
                listeners: [{ name: l, protocols: [http1, gopher], route_config: { virtual_hosts: [] } }]
                """, "listeners[0].protocols[1]: unknown protocol 'gopher' (expected one of [bolt, dubbo, h2c, http1])");
    }

    @Test
    void rejectsMissingAndEmptyRequiredFields() {
        assertRejected("listeners: [{ name: l }]", "listeners[0].route_config: required");
        assertRejected(clusters("[{ name: \"\", endpoints: [] }]"), "clusters[0].name: must not be empty");
        assertRejected(clusters("{ name: backend }"), "clusters: must be a list");
    }

    @Test
    void namesTheFileThatCannotBeRead(@TempDir Path dir) {
        Path missing = dir.resolve("missing.yaml");

        assertThatThrownBy(() -> ConfigLoader.load(missing))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(missing + ": cannot be read: ");
    }
}
