package io.tollgate.router.route;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.router.TestRequest;
import org.junit.jupiter.api.Test;

class VirtualHostSelectionTest {

    private static final RouteTable TABLE = RouteTables.of("""
            [{ name: exact, domains: [API.Example.com], routes: [{ match: { prefix: / }, route: { cluster: a } }] },
             { name: suffix-short, domains: ["*.com"], routes: [{ match: { prefix: / }, route: { cluster: a } }] },
             { name: suffix-long, domains: ["*.example.com"], routes: [{ match: { prefix: / }, route: { cluster: a } }] },
             { name: prefix-short, domains: ["api.*"], routes: [{ match: { prefix: / }, route: { cluster: a } }] },
             { name: prefix-long, domains: ["api.internal.*"], routes: [{ match: { prefix: / }, route: { cluster: a } }] },
             { name: any, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: a } }] }]""");

    private static String hostFor(String authority) {
        Route route = TABLE.route(TestRequest.of(authority, "/"));
        return route == null ? null : route.virtualHost();
    }

    @Test
    void prefersAnExactDomainOverEveryWildcard() {
        assertThat(hostFor("api.example.com")).isEqualTo("exact");
    }

    @Test
    void prefersTheLongestSuffixWildcard() {
        assertThat(hostFor("www.example.com")).isEqualTo("suffix-long");
        assertThat(hostFor("shop.com")).isEqualTo("suffix-short");
    }

    @Test
    void requiresASuffixWildcardToMatchAtLeastOneCharacter() {
        assertThat(hostFor("example.com")).isEqualTo("suffix-short");
        assertThat(hostFor(".com")).isEqualTo("any");
    }

    @Test
    void prefersSuffixWildcardsOverPrefixWildcards() {
        assertThat(hostFor("api.shop.com")).isEqualTo("suffix-short");
    }

    @Test
    void prefersTheLongestPrefixWildcard() {
        assertThat(hostFor("api.internal.net")).isEqualTo("prefix-long");
        assertThat(hostFor("api.net")).isEqualTo("prefix-short");
    }

    @Test
    void fallsBackToTheCatchAllForAnyOtherOrMissingAuthority() {
        assertThat(hostFor("example.org")).isEqualTo("any");
        assertThat(hostFor(null)).isEqualTo("any");
    }

    @Test
    void findsNoRouteWithoutACatchAll() {
        RouteTable table = RouteTables.of(
                "[{ name: only, domains: [a.com], routes: [{ match: { prefix: / }, route: { cluster: a } }] }]");

        assertThat(table.route(TestRequest.of("b.com", "/"))).isNull();
        assertThat(table.route(TestRequest.of("a.com", "/")).virtualHost()).isEqualTo("only");
    }
}
