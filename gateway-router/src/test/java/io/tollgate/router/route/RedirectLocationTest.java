package io.tollgate.router.route;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.router.TestRequest;
import org.junit.jupiter.api.Test;

class RedirectLocationTest {

    private static Route redirect(String match, String redirect) {
        Route route = RouteTables.ofRoutes("[{ match: " + match + ", redirect: " + redirect + " }]").routes().get(0);
        assertThat(route.kind()).isEqualTo(Route.Kind.REDIRECT);
        return route;
    }

    @Test
    void keepsEveryPartOfTheRequestThatIsNotConfigured() {
        Route route = redirect("{ prefix: / }", "{ response_code: 307 }");

        assertThat(route.redirectLocation(TestRequest.of("shop.com", "/a/b?x=1&y=2"), "http", "shop.com:8080"))
                .isEqualTo("http://shop.com:8080/a/b?x=1&y=2");
        assertThat(route.redirectCode()).isEqualTo(307);
    }

    @Test
    void usesTheAuthorityWhenThereIsNoHostHeader() {
        Route route = redirect("{ prefix: / }", "{ path: /x }");

        assertThat(route.redirectLocation(TestRequest.of("svc.rpc", "/a"), "http", null))
                .isEqualTo("http://svc.rpc/x");
        assertThat(route.redirectCode()).isEqualTo(301);
    }

    @Test
    void dropsTheRequestPortWhenTheSchemeChanges() {
        Route route = redirect("{ prefix: / }", "{ scheme: https }");

        assertThat(route.redirectLocation(TestRequest.of("shop.com", "/a?q"), "http", "shop.com:8080"))
                .isEqualTo("https://shop.com/a?q");
        assertThat(route.redirectLocation(TestRequest.of("shop.com", "/a"), "https", "shop.com:8443"))
                .isEqualTo("https://shop.com:8443/a");
    }

    @Test
    void replacesHostPortAndPathAndStripsTheQuery() {
        Route route = redirect("{ prefix: / }",
                "{ scheme: https, host: new.example.com, port: 8443, path: /landing, strip_query: true }");

        assertThat(route.redirectLocation(TestRequest.of("old.com", "/a?x=1"), "http", "old.com:80"))
                .isEqualTo("https://new.example.com:8443/landing");
    }

    @Test
    void replacesThePortOfAnIpv6HostWithoutBreakingTheAddress() {
        Route route = redirect("{ prefix: / }", "{ port: 9000 }");

        assertThat(route.redirectLocation(TestRequest.of("::1", "/"), "http", "[::1]:8080"))
                .isEqualTo("http://[::1]:9000/");
        assertThat(route.redirectLocation(TestRequest.of("::1", "/"), "http", "[::1]"))
                .isEqualTo("http://[::1]:9000/");
    }

    @Test
    void rewritesOnlyTheMatchedPrefixOfThePath() {
        Route route = redirect("{ prefix: /api/v0/ }", "{ prefix_rewrite: /api/v1/, response_code: 308 }");

        assertThat(route.redirectLocation(TestRequest.of("h", "/api/v0/users/v0/?page=2"), "http", "h"))
                .isEqualTo("http://h/api/v1/users/v0/?page=2");
    }
}
