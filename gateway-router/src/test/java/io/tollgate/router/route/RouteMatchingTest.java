package io.tollgate.router.route;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.router.TestRequest;
import org.junit.jupiter.api.Test;

class RouteMatchingTest {

    private static String routeFor(RouteTable table, TestRequest request) {
        Route route = table.route(request);
        return route == null ? null : route.name();
    }

    private static String routeFor(RouteTable table, String pathAndQuery) {
        return routeFor(table, TestRequest.of("host", pathAndQuery));
    }

    @Test
    void matchesAnExactPathOnlyAsAWhole() {
        RouteTable table = RouteTables.ofRoutes("[{ name: r, match: { path: /a/b }, route: { cluster: a } }]");

        assertThat(routeFor(table, "/a/b")).isEqualTo("r");
        assertThat(routeFor(table, "/a/b?x=1")).isEqualTo("r");
        assertThat(routeFor(table, "/a/b/")).isNull();
        assertThat(routeFor(table, "/a")).isNull();
        assertThat(routeFor(table, "/A/B")).isNull();
    }

    @Test
    void matchesAPrefixOnAnyPathThatStartsWithIt() {
        RouteTable table = RouteTables.ofRoutes("[{ name: r, match: { prefix: /api }, route: { cluster: a } }]");

        assertThat(routeFor(table, "/api")).isEqualTo("r");
        assertThat(routeFor(table, "/api/v1")).isEqualTo("r");
        assertThat(routeFor(table, "/apix")).isEqualTo("r");
        assertThat(routeFor(table, "/ap")).isNull();
    }

    @Test
    void matchesARegexAgainstTheWholePath() {
        RouteTable table = RouteTables.ofRoutes(
                "[{ name: r, match: { regex: \"/users/[0-9]+\" }, route: { cluster: a } }]");

        assertThat(routeFor(table, "/users/42")).isEqualTo("r");
        assertThat(routeFor(table, "/users/42/orders")).isNull();
        assertThat(routeFor(table, "/x/users/42")).isNull();
    }

    @Test
    void matchesHeadersByExactValueRegexAndPresence() {
        RouteTable table = RouteTables.ofRoutes("""
                [{ name: exact, match: { prefix: /, headers: [{ name: X-Env, exact: prod }] }, route: { cluster: a } },
                 { name: regex, match: { prefix: /, headers: [{ name: x-user, regex: "u[0-9]+" }] }, route: { cluster: a } },
                 { name: present, match: { prefix: /, headers: [{ name: x-debug, present: true }] }, route: { cluster: a } }]""");

        assertThat(routeFor(table, TestRequest.of("h", "/").header("x-env", "prod"))).isEqualTo("exact");
        assertThat(routeFor(table, TestRequest.of("h", "/").header("x-env", "prod2"))).isNull();
        assertThat(routeFor(table, TestRequest.of("h", "/").header("x-user", "u17"))).isEqualTo("regex");
        assertThat(routeFor(table, TestRequest.of("h", "/").header("x-user", "u17x"))).isNull();
        assertThat(routeFor(table, TestRequest.of("h", "/").header("x-debug", ""))).isEqualTo("present");
        assertThat(routeFor(table, TestRequest.of("h", "/"))).isNull();
    }

    @Test
    void invertsAHeaderMatcherIncludingWhenTheHeaderIsAbsent() {
        RouteTable table = RouteTables.ofRoutes("""
                [{ name: not-bot, match: { prefix: /, headers: [{ name: user-agent, regex: ".*bot.*", invert: true }] },
                   route: { cluster: a } },
                 { name: absent, match: { prefix: /, headers: [{ name: x-token, present: true, invert: true }] },
                   route: { cluster: a } }]""");

        assertThat(routeFor(table, TestRequest.of("h", "/").header("user-agent", "curl"))).isEqualTo("not-bot");
        assertThat(routeFor(table, TestRequest.of("h", "/").header("user-agent", "googlebot")
                .header("x-token", "t"))).isNull();
        assertThat(routeFor(table, TestRequest.of("h", "/").header("user-agent", "googlebot"))).isEqualTo("absent");
        assertThat(routeFor(table, TestRequest.of("h", "/"))).isEqualTo("not-bot");
    }

    @Test
    void matchesQueryParametersDecodedAndByPresence() {
        RouteTable table = RouteTables.ofRoutes("""
                [{ name: exact, match: { prefix: /, query_parameters: [{ name: lang, exact: "zh cn" }] }, route: { cluster: a } },
                 { name: present, match: { prefix: /, query_parameters: [{ name: debug, present: true }] }, route: { cluster: a } },
                 { name: regex, match: { prefix: /, query_parameters: [{ name: id, regex: "[0-9]+" }] }, route: { cluster: a } }]""");

        assertThat(routeFor(table, "/?a=1&lang=zh+cn")).isEqualTo("exact");
        assertThat(routeFor(table, "/?lang=zh%20cn")).isEqualTo("exact");
        assertThat(routeFor(table, "/?language=zh+cn")).isNull();
        assertThat(routeFor(table, "/?x&debug")).isEqualTo("present");
        assertThat(routeFor(table, "/?debug=")).isEqualTo("present");
        assertThat(routeFor(table, "/?id=12")).isEqualTo("regex");
        assertThat(routeFor(table, "/?id=12a")).isNull();
        assertThat(routeFor(table, "/")).isNull();
    }

    @Test
    void letsTheFirstMatchingRouteWin() {
        RouteTable table = RouteTables.ofRoutes("""
                [{ name: first, match: { prefix: /a, headers: [{ name: x, present: true }] }, route: { cluster: a } },
                 { name: second, match: { prefix: / }, route: { cluster: a } },
                 { name: shadowed, match: { path: /a/b }, route: { cluster: a } }]""");

        assertThat(routeFor(table, TestRequest.of("h", "/a/b").header("x", "1"))).isEqualTo("first");
        assertThat(routeFor(table, "/a/b")).isEqualTo("second");
    }

    @Test
    void namesUnnamedRoutesByVirtualHostAndIndex() {
        RouteTable table = RouteTables.ofRoutes("""
                [{ name: named, match: { path: /n }, route: { cluster: a } },
                 { match: { prefix: / }, route: { cluster: a } }]""");

        assertThat(table.routes()).extracting(Route::name).containsExactly("named", "vh/1");
        assertThat(table.routes()).extracting(Route::kind).containsOnly(Route.Kind.FORWARD);
    }

    @Test
    void splitsWeightedClustersExactlyInProportionOverTheirWeightSum() {
        Route route = RouteTables.ofRoutes("""
                [{ match: { prefix: / }, route: { weighted_clusters: [{ name: a, weight: 1 }, { name: b, weight: 3 },
                                                                    { name: c, weight: 6 }] } }]""").routes().get(0);
        int[] counts = new int[3];
        for (int random = -1000; random < 1000; random++) {
            counts[route.chooseCluster(random).charAt(0) - 'a']++;
        }

        assertThat(counts).containsExactly(200, 600, 1200);
        assertThat(route.chooseCluster(Integer.MIN_VALUE)).isIn("a", "b", "c");
    }

    @Test
    void alwaysChoosesASingleCluster() {
        Route route = RouteTables.ofRoutes("[{ match: { prefix: / }, route: { cluster: b } }]").routes().get(0);

        assertThat(route.chooseCluster(12345)).isEqualTo("b");
        assertThat(route.hostRewrite()).isNull();
    }

    @Test
    void rewritesTheMatchedPrefixOnly() {
        RouteTable table = RouteTables.ofRoutes("""
                [{ match: { prefix: /old/ }, route: { cluster: a, prefix_rewrite: /new/, host_rewrite: up.internal } },
                 { match: { path: /exact }, route: { cluster: a, prefix_rewrite: /other } },
                 { match: { prefix: /keep }, route: { cluster: a } }]""");
        Route prefix = table.routes().get(0);

        assertThat(prefix.rewritePath("/old/a/old/")).isEqualTo("/new/a/old/");
        assertThat(prefix.rewritePath("/old/")).isEqualTo("/new/");
        assertThat(prefix.hostRewrite()).isEqualTo("up.internal");
        assertThat(table.routes().get(1).rewritePath("/exact")).isEqualTo("/other");
        assertThat(table.routes().get(2).rewritePath("/keep/x")).isEqualTo("/keep/x");
    }

    @Test
    void answersDirectResponsesFromConfiguration() {
        Route route = RouteTables.ofRoutes("[{ match: { path: /ping }, direct_response: { status: 204 } }]")
                .routes().get(0);

        assertThat(route.kind()).isEqualTo(Route.Kind.DIRECT_RESPONSE);
        assertThat(route.directResponse().status()).isEqualTo(204);
        assertThat(route.directResponse().body()).isEmpty();
    }
}
