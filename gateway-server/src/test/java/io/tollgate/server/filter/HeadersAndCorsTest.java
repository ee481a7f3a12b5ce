package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code headers} filter with variables, seen by a real upstream and the JDK client; a route's
 * own header keys as its per-route form, on forwarded requests and on the route's direct answer
 * but not on gateway errors; and the {@code cors} filter's preflight and actual requests.
 */
class HeadersAndCorsTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: web
                port: 0
                protocols: [http1]
                filters:
                  - name: cors
                    allow_origin: [ { exact: "https://shop.example" }, { suffix: ".trusted.test" } ]
                    allow_methods: "GET, PUT"
                    allow_headers: "x-token"
                    expose_headers: "x-upstream"
                    max_age: 600
                    allow_credentials: true
                  - name: headers
                    request_headers:
                      add:
                        - { name: x-client-ip, value: "%DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT%" }
                        - { name: x-route, value: "route=%ROUTE_NAME% listener=%LISTENER_NAME%" }
                        - { name: x-id, value: "%REQUEST_ID%" }
                      remove: [ x-secret ]
                    response_headers:
                      add:
                        - { name: x-served-by, value: "%UPSTREAM_REMOTE_ADDRESS%" }
                        - { name: x-discount, value: "100%%" }
                      remove: [ x-upstream-internal ]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - name: teapot
                          match: { prefix: /teapot }
                          direct_response: { status: 418, body: "tea" }
                          response_headers: { add: [ { name: x-route-own, value: "50% literal" } ] }
                        - name: broken
                          match: { prefix: /broken }
                          route: { cluster: nowhere }
                          response_headers: { add: [ { name: x-route-own, value: "never on errors" } ] }
                        - name: plain
                          match: { prefix: /plain }
                          route: { cluster: app }
                          filters: { headers: { disabled: true }, cors: { disabled: true } }
                        - name: app
                          match: { prefix: / }
                          route: { cluster: app }
            clusters:
              - name: app
                endpoints: [ { address: 127.0.0.1, port: ${APP} } ]
              - name: nowhere
                endpoints: [ { address: 127.0.0.1, port: ${NOWHERE} } ]
            """;

    private static final AtomicInteger preflightsUpstream = new AtomicInteger();
    private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static HttpUpstream app;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        app = new HttpUpstream("app").handle("/internal", exchange -> {
            if (exchange.getRequestMethod().equals("OPTIONS")) {
                preflightsUpstream.incrementAndGet();
            }
            exchange.getResponseHeaders().set("x-upstream-internal", "secret");
            HttpUpstream.respond(exchange, 200, new byte[0]);
        });
        gateway = TestGateway.start(CONFIG, Map.of("APP", app.port(), "NOWHERE", FreePort.pick()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        app.close();
    }

    @Test
    void requestHeadersCarryVariablesToTheUpstreamAndResponseHeadersReachTheClient() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("web", "/items"))
                .header("x-secret", "s3cr3t").header("x-request-id", "req-42"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .contains("h-x-client-ip: 127.0.0.1", "h-x-route: route=app listener=web", "h-x-id: req-42")
                .doesNotContain("x-secret");
        assertThat(response.headers().firstValue("x-served-by")).hasValue("127.0.0.1:" + app.port());
        assertThat(response.headers().firstValue("x-discount")).hasValue("100%");
    }

    @Test
    void requestIdMadeByTheGatewayIsTheOneTheVariableGives() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("web", "/items")));

        String id = response.body().lines().filter(l -> l.startsWith("h-x-request-id: ")).findFirst().orElseThrow()
                .substring("h-x-request-id: ".length());
        assertThat(response.body()).contains("h-x-id: " + id);
    }

    @Test
    void responseHeadersAreRemoved() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("web", "/internal")));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("x-upstream-internal")).isEmpty();
    }

    @Test
    void routesOwnResponseHeadersGoOnItsDirectAnswerLiterallyButNotOnGatewayErrors() throws Exception {
        HttpResponse<String> teapot = send(HttpRequest.newBuilder(gateway.uri("web", "/teapot")));
        HttpResponse<String> broken = send(HttpRequest.newBuilder(gateway.uri("web", "/broken")));

        assertThat(teapot.statusCode()).isEqualTo(418);
        assertThat(teapot.headers().firstValue("x-route-own")).hasValue("50% literal");
        assertThat(broken.statusCode()).isEqualTo(503);
        assertThat(broken.headers().firstValue("x-tollgate-error")).hasValue("upstream_connect_failure");
        assertThat(broken.headers().firstValue("x-route-own")).isEmpty();
        assertThat(broken.headers().firstValue("x-discount")).isEmpty();
    }

    @Test
    void routeThatDisablesTheFiltersIsLeftAlone() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("web", "/plain"))
                .header("origin", "https://shop.example"));

        assertThat(response.body()).doesNotContain("h-x-client-ip");
        assertThat(response.headers().firstValue("x-discount")).isEmpty();
        assertThat(response.headers().firstValue("access-control-allow-origin")).isEmpty();
    }

    @Test
    void preflightFromAnAllowedOriginIsAnsweredByTheGateway() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("web", "/internal"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("origin", "https://shop.example")
                .header("access-control-request-method", "PUT"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEmpty();
        assertThat(response.headers().map()).containsEntry("access-control-allow-origin", List.of("https://shop.example"))
                .containsEntry("access-control-allow-methods", List.of("GET, PUT"))
                .containsEntry("access-control-allow-headers", List.of("x-token"))
                .containsEntry("access-control-max-age", List.of("600"))
                .containsEntry("access-control-allow-credentials", List.of("true"))
                .doesNotContainKey("x-tollgate-error");
        assertThat(preflightsUpstream.get()).isZero();
        assertThat(gateway.count("tollgate.filter.cors.origin_valid", "listener", "web")).isPositive();
    }

    @Test
    void actualRequestFromAnAllowedOriginGetsTheOriginBack() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("web", "/items"))
                .header("origin", "https://a.trusted.test"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("access-control-allow-origin")).hasValue("https://a.trusted.test");
        assertThat(response.headers().firstValue("access-control-allow-credentials")).hasValue("true");
        assertThat(response.headers().firstValue("access-control-expose-headers")).hasValue("x-upstream");
        assertThat(response.headers().firstValue("access-control-allow-methods")).isEmpty();
    }

    @Test
    void otherOriginsGetNoCorsHeadersAndTheirPreflightGoesUpstream() throws Exception {
        int before = preflightsUpstream.get();
        HttpResponse<String> actual = send(HttpRequest.newBuilder(gateway.uri("web", "/items"))
                .header("origin", "https://evil.example"));
        HttpResponse<String> preflight = send(HttpRequest.newBuilder(gateway.uri("web", "/internal"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("origin", "https://evil.example")
                .header("access-control-request-method", "PUT"));

        assertThat(actual.headers().firstValue("access-control-allow-origin")).isEmpty();
        assertThat(preflight.headers().firstValue("access-control-allow-origin")).isEmpty();
        assertThat(preflightsUpstream.get()).isEqualTo(before + 1);
        assertThat(gateway.count("tollgate.filter.cors.origin_invalid", "listener", "web")).isGreaterThanOrEqualTo(2);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
