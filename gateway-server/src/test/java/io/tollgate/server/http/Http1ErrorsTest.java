package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every error the gateway answers itself, each over a real socket: the status, the reason header,
 * the counter, and that the connection is closed where its framing cannot be trusted.
 */
class Http1ErrorsTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: http
                port: 0
                http: { max_header_bytes: 4096, max_initial_line_bytes: 1024, max_request_body_bytes: 1000 }
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - { match: { prefix: /ok }, route: { cluster: ok } }
                        - { match: { prefix: /reset }, route: { cluster: reset } }
                        - { match: { prefix: /garbage }, route: { cluster: garbage } }
                        - { match: { prefix: /slow }, route: { cluster: slow, timeout: 300ms } }
                        - { match: { prefix: /refused }, route: { cluster: refused } }
                        - { match: { prefix: /busy }, route: { cluster: busy, timeout: 5s } }
                        - { match: { prefix: /half }, route: { cluster: half } }
                        - { match: { prefix: /unhealthy }, route: { cluster: unhealthy } }
            clusters:
              - name: ok
                endpoints: [ { address: 127.0.0.1, port: ${OK} } ]
              - name: reset
                endpoints: [ { address: 127.0.0.1, port: ${RESET} } ]
              - name: garbage
                endpoints: [ { address: 127.0.0.1, port: ${GARBAGE} } ]
              - name: slow
                endpoints: [ { address: 127.0.0.1, port: ${SLOW} } ]
              - name: refused
                connect_timeout: 1s
                endpoints: [ { address: 127.0.0.1, port: ${REFUSED} } ]
              - name: busy
                max_connections_per_host: 1
                max_pending_requests: 0
                endpoints: [ { address: 127.0.0.1, port: ${SLOW} } ]
              - name: half
                endpoints: [ { address: 127.0.0.1, port: ${HALF} } ]
              - name: unhealthy
                endpoints: [ { address: 127.0.0.1, port: ${OK} } ]
            """;

    private static final CountDownLatch release = new CountDownLatch(1);
    private static HttpUpstream ok;
    private static RawUpstream reset;
    private static RawUpstream garbage;
    private static RawUpstream slow;
    private static RawUpstream half;
    private static TestGateway gateway;
    private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws Exception {
        ok = new HttpUpstream();
        reset = new RawUpstream(socket -> {
            readHead(socket.getInputStream());
            socket.setSoLinger(true, 0);
        });
        garbage = new RawUpstream(socket -> {
            readHead(socket.getInputStream());
            socket.getOutputStream().write("NOT HTTP AT ALL\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            socket.getInputStream().read();
        });
        slow = new RawUpstream(socket -> {
            readHead(socket.getInputStream());
            release.await(30, TimeUnit.SECONDS);
        });
        half = new RawUpstream(socket -> {
            readHead(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\npartial".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        });
        int refused;
        try (ServerSocket probe = new ServerSocket(0)) {
            refused = probe.getLocalPort();
        }
        gateway = TestGateway.start(CONFIG, Map.of("OK", ok.port(), "RESET", reset.port(), "GARBAGE", garbage.port(),
                "SLOW", slow.port(), "REFUSED", refused, "HALF", half.port()));
        gateway.gateway().snapshot().clusters().cluster("unhealthy").hosts().forEach(h -> h.healthy(false));
    }

    @AfterAll
    static void stop() throws Exception {
        release.countDown();
        gateway.close();
        ok.close();
        reset.close();
        garbage.close();
        slow.close();
        half.close();
    }

    private static void readHead(InputStream in) throws Exception {
        int matched = 0;
        int c;
        while (matched < 4 && (c = in.read()) >= 0) {
            matched = (c == "\r\n\r\n".charAt(matched)) ? matched + 1 : (c == '\r' ? 1 : 0);
        }
    }

    private static RawHttp.Response raw(String request) throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            return connection.send(request).read();
        }
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(gateway.uri("http", path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void malformedRequestIs400AndCloses() throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            RawHttp.Response response = connection.send("GET /ok HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.header("connection")).isEqualTo("close");
            assertThat(connection.closedByServer()).isTrue();
        }
    }

    @Test
    void bothContentLengthAndTransferEncodingIsRefused() throws Exception {
        RawHttp.Response response = raw("POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        assertThat(response.status()).isEqualTo(400);
    }

    @Test
    void tooLargeHeadersAre431() throws Exception {
        RawHttp.Response response = raw("GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(5000) + "\r\n\r\n");
        assertThat(response.status()).isEqualTo(431);
        assertThat(gateway.count("tollgate.downstream.rq.error", "reason", response.header("x-tollgate-error")))
                .isGreaterThan(0);
    }

    @Test
    void tooLongRequestLineIs414() throws Exception {
        assertThat(raw("GET /ok?" + "q".repeat(2000) + " HTTP/1.1\r\nHost: x\r\n\r\n").status()).isEqualTo(414);
    }

    @Test
    void declaredBodyOverTheLimitIs413() throws Exception {
        RawHttp.Response response = raw("POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n");
        assertThat(response.status()).isEqualTo(413);
        assertThat(response.header("x-tollgate-error")).isEqualTo("body_too_large");
    }

    @Test
    void chunkedBodyGrowingOverTheLimitIs413() throws Exception {
        String chunk = "400\r\n" + "b".repeat(1024) + "\r\n";
        RawHttp.Response response = raw("POST /slow HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk);
        assertThat(response.status()).isEqualTo(413);
    }

    @Test
    void upstreamResetBeforeResponseIs502() throws Exception {
        HttpResponse<String> response = get("/reset");
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.headers().firstValue("x-tollgate-error")).hasValue("upstream_reset");
        assertThat(gateway.count("tollgate.upstream.rq.reset", "cluster", "reset")).isGreaterThan(0);
    }

    @Test
    void garbageFromUpstreamIs502() throws Exception {
        HttpResponse<String> response = get("/garbage");
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.headers().firstValue("x-tollgate-error")).hasValue("upstream_bad_response");
    }

    @Test
    void slowUpstreamIs504AfterTheRouteTimeout() throws Exception {
        HttpResponse<String> response = get("/slow");
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(gateway.count("tollgate.upstream.rq.timeout", "cluster", "slow")).isGreaterThan(0);
    }

    @Test
    void refusedConnectionIs503() throws Exception {
        HttpResponse<String> response = get("/refused");
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("x-tollgate-error")).hasValue("upstream_connect_failure");
        assertThat(gateway.count("tollgate.upstream.cx.connect_fail", "cluster", "refused")).isGreaterThan(0);
    }

    @Test
    void noHealthyHostIs503() throws Exception {
        HttpResponse<String> response = get("/unhealthy");
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("x-tollgate-error")).hasValue("no_healthy_upstream");
        assertThat(gateway.count("tollgate.upstream.cx.none_healthy", "cluster", "unhealthy")).isGreaterThan(0);
    }

    @Test
    void poolOverflowIs503() throws Exception {
        int acceptedBefore = slow.accepted();
        try (RawHttp first = new RawHttp(gateway.port("http"))) {
            first.send("GET /busy HTTP/1.1\r\nHost: x\r\n\r\n");
            await(() -> slow.accepted() > acceptedBefore);
            HttpResponse<String> second = get("/busy");
            assertThat(second.statusCode()).isEqualTo(503);
            assertThat(second.headers().firstValue("x-tollgate-error")).hasValue("upstream_overflow");
            assertThat(gateway.count("tollgate.upstream.rq.pending_overflow", "cluster", "busy")).isGreaterThan(0);
        }
    }

    @Test
    void upstreamClosingMidResponseClosesTheDownstreamConnection() throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            RawHttp.Response response = connection.send("GET /half HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("partial");
            assertThat(connection.closedByServer()).isTrue();
        }
        assertThat(get("/ok").statusCode()).isEqualTo(200);
    }

    @Test
    void errorsAreCountedByStatusClass() throws Exception {
        double before = gateway.count("tollgate.downstream.rq", "listener", "http", "status_class", "5xx");
        get("/reset");
        assertThat(gateway.count("tollgate.downstream.rq", "listener", "http", "status_class", "5xx"))
                .isEqualTo(before + 1);
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 10 s");
            }
            Thread.onSpinWait();
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }
}
