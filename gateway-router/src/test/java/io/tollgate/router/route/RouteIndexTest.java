package io.tollgate.router.route;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.DirectResponseConfig;
import io.tollgate.core.config.HeaderMutationConfig;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.RouteMatchConfig;
import io.tollgate.core.config.ValueMatcherConfig;
import io.tollgate.core.config.VirtualHostConfig;
import io.tollgate.router.TestRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The indexed lookup must pick exactly the route a plain ordered scan picks. */
class RouteIndexTest {

    private static final String[] SEGMENTS = {"a", "b", "ab", "a.b"};

    /** The reference: try every route in order, the first that matches wins. */
    private static Route scan(List<Route> routes, TestRequest request) {
        for (Route route : routes) {
            if (route.matches(request)) {
                return route;
            }
        }
        return null;
    }

    @Test
    void agreesWithAnOrderedScanOnRandomRouteSets() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        int compared = 0;
        int matched = 0;
        for (int set = 0; set < 300; set++) {
            RouteTable table = table(randomRoutes(random, 1 + random.nextInt(40)));
            List<Route> routes = table.routes();
            for (int r = 0; r < 100; r++) {
                TestRequest request = randomRequest(random);
                Route expected = scan(routes, request);

                assertThat(table.route(request)).as("seed %d, request %s", seed, request).isSameAs(expected);
                compared++;
                matched += expected == null ? 0 : 1;
            }
        }
        assertThat(matched).as("the random sets must exercise both matches and misses")
                .isBetween(compared / 5, compared * 19 / 20);
    }

    @Test
    void prefersAnEarlierPrefixRouteOverALaterExactOne() {
        RouteTable table = RouteTables.ofRoutes("""
                [{ name: deep, match: { prefix: /a/b/c }, route: { cluster: a } },
                 { name: short, match: { prefix: /a }, route: { cluster: a } },
                 { name: exact, match: { path: /a/b/c/d }, route: { cluster: a } },
                 { name: longer, match: { prefix: /a/b/c/d }, route: { cluster: a } }]""");

        assertThat(table.route(TestRequest.of("h", "/a/b/c/d")).name()).isEqualTo("deep");
        assertThat(table.route(TestRequest.of("h", "/a/b")).name()).isEqualTo("short");
    }

    @Test
    void fallsThroughToALaterCandidateWhenAnEarlierOneFailsItsHeaders() {
        RouteTable table = RouteTables.ofRoutes("""
                [{ name: gated, match: { path: /x, headers: [{ name: k, exact: v }] }, route: { cluster: a } },
                 { name: gated-prefix, match: { prefix: /x, headers: [{ name: k, exact: w }] }, route: { cluster: a } },
                 { name: regex, match: { regex: "/x" }, route: { cluster: a } },
                 { name: exact, match: { path: /x }, route: { cluster: a } }]""");

        assertThat(table.route(TestRequest.of("h", "/x").header("k", "v")).name()).isEqualTo("gated");
        assertThat(table.route(TestRequest.of("h", "/x").header("k", "w")).name()).isEqualTo("gated-prefix");
        assertThat(table.route(TestRequest.of("h", "/x")).name()).isEqualTo("regex");
    }

    @Test
    void picksTheFirstOfRoutesKeyedByAHeaderValueAndRoutesThatAreNot() {
        RouteTable table = RouteTables.ofRoutes("""
                [{ name: s1, match: { prefix: /, headers: [{ name: service, exact: one }] }, route: { cluster: a } },
                 { name: any-two, match: { prefix: /, headers: [{ name: other, exact: x }] }, route: { cluster: a } },
                 { name: s2, match: { prefix: /, headers: [{ name: service, exact: two }] }, route: { cluster: a } },
                 { name: s1-again, match: { prefix: /, headers: [{ name: service, exact: one }] }, route: { cluster: a } },
                 { name: not-three, match: { prefix: /, headers: [{ name: service, exact: three, invert: true }] },
                   route: { cluster: a } }]""");

        assertThat(table.route(TestRequest.of("h", "/x").header("service", "one")).name()).isEqualTo("s1");
        assertThat(table.route(TestRequest.of("h", "/x").header("service", "two").header("other", "x")).name())
                .isEqualTo("any-two");
        assertThat(table.route(TestRequest.of("h", "/x").header("service", "two")).name()).isEqualTo("s2");
        assertThat(table.route(TestRequest.of("h", "/x").header("service", "four")).name()).isEqualTo("not-three");
        assertThat(table.route(TestRequest.of("h", "/x").header("service", "three"))).isNull();
    }

    private static RouteTable table(List<RouteEntryConfig> routes) {
        return RouteTable.compile(new RouteConfig(List.of(new VirtualHostConfig("vh", List.of("*"), routes))));
    }

    private static List<RouteEntryConfig> randomRoutes(Random random, int count) {
        List<RouteEntryConfig> routes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String path = randomPath(random);
            int kind = random.nextInt(10);
            Optional<String> exact = kind < 4 ? Optional.of(path) : Optional.empty();
            Optional<String> prefix = kind >= 4 && kind < 9 ? Optional.of(path) : Optional.empty();
            Optional<String> regex = kind == 9 ? Optional.of(path.replace(".", "\\.") + ".*") : Optional.empty();
            List<ValueMatcherConfig> headers = switch (random.nextInt(4)) {
                case 0 -> List.of(randomMatcher(random));
                case 1 -> List.of(exactMatcher(random));
                case 2 -> List.of(exactMatcher(random), randomMatcher(random));
                default -> List.of();
            };
            List<ValueMatcherConfig> query = random.nextInt(8) == 0 ? List.of(randomMatcher(random)) : List.of();
            routes.add(new RouteEntryConfig("", new RouteMatchConfig(exact, prefix, regex, headers, query),
                    Optional.empty(), Optional.of(new DirectResponseConfig(200, "")), Optional.empty(),
                    HeaderMutationConfig.NONE, HeaderMutationConfig.NONE));
        }
        return routes;
    }

    private static ValueMatcherConfig randomMatcher(Random random) {
        boolean invert = random.nextInt(4) == 0;
        switch (random.nextInt(3)) {
            case 0:
                return new ValueMatcherConfig("k", Optional.of("1"), Optional.empty(), false, invert);
            case 1:
                return new ValueMatcherConfig("k", Optional.empty(), Optional.of("[12]"), false, invert);
            default:
                return new ValueMatcherConfig("k", Optional.empty(), Optional.empty(), true, invert);
        }
    }

    /** An exact value of header {@code s} or {@code k}, the kind of matcher routes are keyed by. */
    private static ValueMatcherConfig exactMatcher(Random random) {
        String name = random.nextBoolean() ? "s" : "k";
        return new ValueMatcherConfig(name, Optional.of(String.valueOf(random.nextInt(3))), Optional.empty(), false,
                random.nextInt(8) == 0);
    }

    private static TestRequest randomRequest(Random random) {
        String query = random.nextBoolean() ? "" : "?k=" + random.nextInt(3);
        TestRequest request = TestRequest.of("h", randomPath(random) + query);
        if (random.nextBoolean()) {
            request = request.header("k", String.valueOf(random.nextInt(3)));
        }
        return random.nextBoolean() ? request.header("s", String.valueOf(random.nextInt(3))) : request;
    }

    /** Paths from a tiny alphabet, so that routes and requests overlap often: "/", "/a", "/ab/a." ... */
    private static String randomPath(Random random) {
        StringBuilder path = new StringBuilder();
        int depth = random.nextInt(4);
        for (int i = 0; i < depth; i++) {
            path.append('/').append(SEGMENTS[random.nextInt(SEGMENTS.length)]);
        }
        if (path.length() == 0 || random.nextInt(4) == 0) {
            path.append('/');
        }
        return path.substring(0, Math.max(1, path.length() - random.nextInt(2)));
    }
}
