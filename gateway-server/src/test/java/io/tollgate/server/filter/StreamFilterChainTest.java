package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.stub.ClientCalls;
import io.tollgate.server.http2.EchoGrpc;
import io.tollgate.server.http2.EchoServer;
import io.tollgate.server.http2.H2Upstream;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the chain guarantees whatever its filters do: a filter that holds a request forever is cut
 * by the route's timeout (504 {@code filter_timeout}), a filter that throws costs its request a
 * 500 {@code filter_error} and nothing else, a client that leaves while its request is held ends
 * it (the filters are told, nothing leaks), filters see the responses they let through and the
 * ones the gateway makes, and a route can run its listener's chain without a filter.
 */
class StreamFilterChainTest {

    private static final String CONFIG = """
            listeners:
              - name: http
                port: 0
                protocols: [http1, h2c]
                filters:
                  - name: test_probe
                    action: pass
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - match: { prefix: /hold/ }
                          route: { cluster: web, timeout: 300ms }
                          filters: { test_probe: { action: hold } }
                        - match: { prefix: /held-long/ }
                          route: { cluster: web, timeout: 60s }
                          filters: { test_probe: { action: hold } }
                        - match: { prefix: /throw/ }
                          route: { cluster: web }
                          filters: { test_probe: { action: throw } }
                        - match: { prefix: /bare/ }
                          route: { cluster: web }
                          filters: { test_probe: { disabled: true } }
                        - match: { prefix: /test.Echo/ }
                          route: { cluster: grpc }
                        - match: { prefix: /trailing }
                          route: { cluster: h2 }
                        - match: { prefix: /direct/ }
                          direct_response: { status: 202, body: here }
                        - match: { prefix: / }
                          route: { cluster: web }
            clusters:
              - name: web
                endpoints: [{ address: 127.0.0.1, port: ${WEB} }]
              - name: grpc
                protocol: h2
                endpoints: [{ address: 127.0.0.1, port: ${GRPC} }]
              - name: h2
                protocol: h2
                endpoints: [{ address: 127.0.0.1, port: ${H2} }]
            """;

    private static final StartedResources started = new StartedResources();
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static TestGateway gateway;
    private static EchoServer grpc;

    @BeforeAll
    static void start() throws Exception {
        HttpUpstream web = started.add(new HttpUpstream("web"));
        grpc = new EchoServer();
        H2Upstream h2 = started.add(new H2Upstream());
        gateway = started.add(TestGateway.start(CONFIG, Map.of("WEB", web.port(), "GRPC", grpc.port(),
                "H2", h2.port())));
    }

    @AfterAll
    static void stop() throws Exception {
        started.close();
        grpc.close();
    }

    @Test
    void filtersSeeRequestTrailersAndAGrpcCallsStatusInTheResponseTrailers() throws Exception {
        try (RawHttp raw = new RawHttp(gateway.port("http"))) {
            raw.send("POST /trailing HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTE: trailers\r\n\r\n"
                    + "5\r\nhello\r\n0\r\nx-client-trailer: sent\r\n\r\n");
            assertThat(raw.read().status()).isEqualTo(200);
        }
        ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", gateway.port("http"),
                InsecureChannelCredentials.create()).build();
        try {
            assertThat(ClientCalls.blockingUnaryCall(channel, EchoGrpc.UNARY,
                    CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "hi")).isEqualTo("hi");
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        assertThat(TestFilters.completions).contains("request trailer /trailing sent",
                "response trailer /test.Echo/Unary 0");
    }

    @Test
    void filtersSeeUpstreamAndGatewayResponses() throws Exception {
        HttpResponse<String> proxied = get("/seen");
        assertThat(proxied.statusCode()).isEqualTo(200);
        assertThat(proxied.headers().firstValue("x-probe")).hasValue("pass:200");
        HttpResponse<String> direct = get("/direct/x");
        assertThat(direct.statusCode()).isEqualTo(202);
        assertThat(direct.headers().firstValue("x-probe")).hasValue("pass:202");
        Await.until("the filter told of the request's end", Duration.ofSeconds(5),
                () -> TestFilters.completions.contains("/seen 200"));
    }

    @Test
    void aRequestHeldForeverEndsAtTheRouteTimeout() throws Exception {
        HttpResponse<String> response = get("/hold/x");
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.headers().firstValue("x-tollgate-error")).hasValue("filter_timeout");
        assertThat(get("/after-hold").statusCode()).isEqualTo(200);
    }

    @Test
    void aFilterThatThrowsCostsOnlyItsRequest() throws Exception {
        HttpResponse<String> response = get("/throw/x");
        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.headers().firstValue("x-tollgate-error")).hasValue("filter_error");
        assertThat(get("/after-throw").statusCode()).isEqualTo(200);
    }

    @Test
    void aRouteWithTheFilterDisabledRunsWithoutIt() throws Exception {
        HttpResponse<String> response = get("/bare/x");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("x-probe")).isEmpty();
    }

    @Test
    void aClientLeavingWhileItsRequestIsHeldEndsTheRequest() throws Exception {
        try (RawHttp raw = new RawHttp(gateway.port("http"))) {
            raw.send("POST /held-long/gone HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n01234");
            Await.until("the request held", Duration.ofSeconds(5), () -> TestFilters.holds.contains("/held-long/gone"));
        }
        Await.until("the held request ended with its client", Duration.ofSeconds(5),
                () -> TestFilters.completions.contains("/held-long/gone 0"));
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(gateway.uri("http", path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
