package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.BackloggedPort;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Idle timeouts on both sides, the connect timeout, and the access log line of a proxied
 * request, through the running proxy.
 */
class Http1TimeoutsAndAccessLogTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: http
                port: 0
                http: { idle_timeout: 300ms }
                access_log: { path: "${LOG}" }
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - { match: { prefix: /pooled }, route: { cluster: pooled } }
                        - { match: { prefix: /hanging }, route: { cluster: hanging, timeout: 10s } }
                        - { match: { prefix: / }, route: { cluster: echo } }
            clusters:
              - name: echo
                endpoints: [ { address: 127.0.0.1, port: ${ECHO} } ]
              - name: pooled
                idle_timeout: 300ms
                endpoints: [ { address: 127.0.0.1, port: ${POOLED} } ]
              - name: hanging
                connect_timeout: 300ms
                endpoints: [ { address: 127.0.0.1, port: ${HANGING} } ]
            """;

    @TempDir
    static Path dir;
    private static final CountDownLatch pooledClosedByGateway = new CountDownLatch(1);
    private static HttpUpstream echo;
    private static RawUpstream pooled;
    private static BackloggedPort hanging;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        echo = new HttpUpstream("echo");
        pooled = new RawUpstream(socket -> {
            InputStream in = socket.getInputStream();
            readHead(in);
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            if (in.read() < 0) {
                pooledClosedByGateway.countDown();
            }
        });
        hanging = new BackloggedPort().fill();
        gateway = TestGateway.start(CONFIG, Map.of("LOG", dir.resolve("access.log"), "ECHO", echo.port(),
                "POOLED", pooled.port(), "HANGING", hanging.port()));
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        echo.close();
        pooled.close();
        hanging.close();
    }

    private static void readHead(InputStream in) throws Exception {
        int matched = 0;
        int c;
        while (matched < 4 && (c = in.read()) >= 0) {
            matched = c == "\r\n\r\n".charAt(matched) ? matched + 1 : (c == '\r' ? 1 : 0);
        }
    }

    @Test
    void idleKeepAliveConnectionIsClosedAfterTheIdleTimeout() throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            assertThat(connection.send("GET /x HTTP/1.1\r\nHost: h\r\n\r\n").read().status()).isEqualTo(200);
            long start = System.nanoTime();
            assertThat(connection.closedByServer()).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void idlePooledUpstreamConnectionIsClosedAfterTheClusterIdleTimeout() throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            assertThat(connection.send("GET /pooled HTTP/1.1\r\nHost: h\r\n\r\n").read().body()).isEqualTo("ok");
        }
        assertThat(pooledClosedByGateway.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void connectThatHangsIsAbandonedAfterTheConnectTimeout() throws Exception {
        long start = System.nanoTime();
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            RawHttp.Response response = connection.send("GET /hanging HTTP/1.1\r\nHost: h\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(503);
            assertThat(response.header("x-tollgate-error")).isEqualTo("upstream_connect_failure");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    private static boolean logContains(Path log, String text) {
        try {
            return Files.exists(log) && Files.readString(log).contains(text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void proxiedRequestIsWrittenToTheAccessLog() throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            connection.send("GET /logged?q=1 HTTP/1.1\r\nHost: logged.example\r\nx-request-id: rid-42\r\n\r\n").read();
        }
        Path log = dir.resolve("access.log");
        Await.until("the access log line", Duration.ofSeconds(5), () -> logContains(log, "rid-42"));
        String line = Files.readAllLines(log).stream().filter(l -> l.contains("rid-42")).findFirst().orElseThrow();
        assertThat(line).contains("\"GET /logged?q=1 HTTP/1.1\" 200", "\"logged.example\"",
                "\"127.0.0.1:" + echo.port() + "\"");
    }
}
