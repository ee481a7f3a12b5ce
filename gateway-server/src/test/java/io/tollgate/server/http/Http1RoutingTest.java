package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Routing through the running proxy: virtual hosts, matchers and every route action, end to end. */
class Http1RoutingTest {

    private static final String CONFIG = """
            listeners:
              - name: http
                port: 0
                route_config:
                  virtual_hosts:
                    - name: api
                      domains: ["api.example.com", "*.api.example.com"]
                      routes:
                        - name: api-all
                          match: { prefix: / }
                          route: { cluster: blue, prefix_rewrite: /v2/ }
                    - name: default
                      domains: ["*"]
                      routes:
                        - name: canary
                          match:
                            prefix: /app
                            headers: [ { name: x-canary, exact: "yes" } ]
                          route: { cluster: green }
                        - name: query
                          match:
                            prefix: /app
                            query_parameters: [ { name: variant, exact: green } ]
                          route: { cluster: green }
                        - name: app
                          match: { prefix: /app }
                          route: { cluster: blue, host_rewrite: internal.blue }
                          request_headers:
                            add: [ { name: x-added, value: "1" } ]
                            remove: [ x-secret ]
                          response_headers:
                            add: [ { name: x-route, value: app } ]
                        - name: split
                          match: { path: /split }
                          route:
                            weighted_clusters: [ { name: blue, weight: 1 }, { name: green, weight: 1 } ]
                        - name: teapot
                          match: { path: /teapot }
                          direct_response: { status: 418, body: "short and stout" }
                        - name: moved
                          match: { prefix: /old/ }
                          redirect: { prefix_rewrite: /new/, response_code: 308 }
                        - name: regex
                          match: { regex: "/items/[0-9]+" }
                          route: { cluster: green }
            clusters:
              - name: blue
                endpoints: [ { address: 127.0.0.1, port: ${BLUE} } ]
              - name: green
                endpoints: [ { address: 127.0.0.1, port: ${GREEN} } ]
            """;

    private static HttpUpstream blue;
    private static HttpUpstream green;
    private static TestGateway gateway;
    private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws Exception {
        blue = new HttpUpstream("blue");
        green = new HttpUpstream("green");
        gateway = TestGateway.start(CONFIG, Map.of("BLUE", blue.port(), "GREEN", green.port()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        blue.close();
        green.close();
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri("http", path));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void routesByPrefixAndRewritesHostAndHeaders() throws Exception {
        HttpResponse<String> response = get("/app/list?x=1", "x-secret", "s3cr3t");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .contains("upstream: blue", "target: /app/list?x=1", "h-host: internal.blue", "h-x-added: 1")
                .doesNotContain("x-secret");
        assertThat(response.headers().firstValue("x-route")).hasValue("app");
    }

    @Test
    void headerMatcherSelectsTheCanaryRoute() throws Exception {
        assertThat(get("/app", "x-canary", "yes").body()).contains("upstream: green");
        assertThat(get("/app", "x-canary", "no").body()).contains("upstream: blue");
    }

    @Test
    void queryParameterMatcherSelectsItsRoute() throws Exception {
        assertThat(get("/app?variant=green").body()).contains("upstream: green");
        assertThat(get("/app?variant=blue").body()).contains("upstream: blue");
    }

    @Test
    void virtualHostByHostHeaderWithPrefixRewrite() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(gateway.uri("http", "/users/7")).build();
        String viaRaw = rawGet("api.example.com", "/users/7");
        assertThat(viaRaw).contains("upstream: blue", "target: /v2/users/7");
        assertThat(rawGet("eu.api.example.com:8080", "/x")).contains("target: /v2/x");
        assertThat(client.send(request, HttpResponse.BodyHandlers.ofString()).body()).doesNotContain("/v2/");
    }

    @Test
    void regexRouteMatchesTheWholePath() throws Exception {
        assertThat(get("/items/42").body()).contains("upstream: green");
        assertThat(get("/items/42x").statusCode()).isEqualTo(503);
    }

    @Test
    void weightedClustersSplitTraffic() throws Exception {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 200; i++) {
            String body = get("/split").body();
            counts.merge(body.contains("upstream: blue") ? "blue" : "green", 1, Integer::sum);
        }
        assertThat(counts.get("blue")).isBetween(60, 140);
        assertThat(counts.get("green")).isBetween(60, 140);
    }

    @Test
    void directResponseIsAnsweredByTheGateway() throws Exception {
        HttpResponse<String> response = get("/teapot");
        assertThat(response.statusCode()).isEqualTo(418);
        assertThat(response.body()).isEqualTo("short and stout");
    }

    @Test
    void redirectRewritesThePrefixAndKeepsTheQuery() throws Exception {
        HttpResponse<String> response = get("/old/page?q=1");
        assertThat(response.statusCode()).isEqualTo(308);
        assertThat(response.headers().firstValue("location"))
                .hasValue("http://127.0.0.1:" + gateway.port("http") + "/new/page?q=1");
    }

    @Test
    void noMatchingRouteIsA503WithReason() throws Exception {
        HttpResponse<String> response = get("/nothing-here");
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("x-tollgate-error")).hasValue("no_route");
        assertThat(gateway.count("tollgate.downstream.rq.error", "reason", "no_route")).isGreaterThan(0);
    }

    @Test
    void addsForwardingHeadersAndRemovesHopByHopOnes() throws Exception {
        String body = rawRequest("GET /app HTTP/1.1\r\nHost: h\r\nConnection: x-hop\r\nX-Hop: 1\r\n"
                + "X-Forwarded-For: 10.0.0.1\r\nKeep-Alive: timeout=5\r\n\r\n");
        assertThat(body).contains("h-x-forwarded-for: 10.0.0.1, 127.0.0.1", "h-x-forwarded-proto: http");
        assertThat(body).containsPattern("h-x-request-id: [0-9a-f]{32}");
        assertThat(body).doesNotContain("h-x-hop", "h-keep-alive");
    }

    @Test
    void keepsTheClientsRequestId() throws Exception {
        assertThat(get("/app", "x-request-id", "abc-123").body()).contains("h-x-request-id: abc-123");
    }

    private static String rawGet(String host, String path) throws Exception {
        return rawRequest("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
    }

    private static String rawRequest(String request) throws Exception {
        try (RawHttp raw = new RawHttp(gateway.port("http"))) {
            return raw.send(request).read().body();
        }
    }
}
