package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A cluster's circuit breakers over real sockets: past max_requests a request is answered 503 at
 * once; past max_connections requests wait for a connection, and past max_pending_requests they
 * are answered 503 at once; each overflow counted.
 */
class CircuitBreakerTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final String CONFIG = GatewayYaml.http("""
            - { match: { prefix: / }, route: { cluster: guarded } }
            """, """
            clusters:
              - name: guarded
                circuit_breakers: ${BREAKERS}
                endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
            """);

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final CompletableFuture<Void> release = new CompletableFuture<>();
    private final AtomicInteger held = new AtomicInteger();
    private HttpUpstream upstream;
    private TestGateway gateway;

    @AfterEach
    void stop() {
        release.complete(null);
        if (gateway != null) {
            gateway.close();
        }
        upstream.close();
    }

    @Test
    void aRequestPastMaxRequestsIsAnswered503AtOnce() throws Exception {
        start("{ max_requests: 1 }");
        CompletableFuture<HttpResponse<String>> first = send("/hold/1");
        Await.until("the first request held upstream", LIMIT, () -> held.get() == 1);

        long startNanos = System.nanoTime();
        HttpResponse<String> second = send("/hold/2").get();

        assertThat(second.statusCode()).isEqualTo(503);
        assertThat(second.headers().firstValue("x-tollgate-error")).hasValue("upstream_overflow");
        assertThat(Duration.ofNanos(System.nanoTime() - startNanos)).isLessThan(Duration.ofSeconds(2));
        assertThat(gateway.count("tollgate.upstream.rq.overflow", "cluster", "guarded")).isEqualTo(1);
        release.complete(null);
        assertThat(first.get().statusCode()).isEqualTo(200);
        assertThat(send("/after").get().statusCode()).as("the breaker closes again").isEqualTo(200);
    }

    @Test
    void pastMaxConnectionsRequestsWaitAndPastMaxPendingTheyAreAnswered503() throws Exception {
        start("{ max_connections: 1, max_pending_requests: 1 }");
        CompletableFuture<HttpResponse<String>> first = send("/hold/1");
        Await.until("the first request held upstream", LIMIT, () -> held.get() == 1);
        CompletableFuture<HttpResponse<String>> waiting = send("/hold/2");
        Await.until("the second request waiting for a connection", LIMIT,
                () -> gateway.count("tollgate.upstream.cx.overflow", "cluster", "guarded") >= 1);

        HttpResponse<String> third = send("/hold/3").get();

        assertThat(third.statusCode()).isEqualTo(503);
        assertThat(third.headers().firstValue("x-tollgate-error")).hasValue("upstream_overflow");
        assertThat(gateway.count("tollgate.upstream.rq.pending_overflow", "cluster", "guarded")).isEqualTo(1);
        assertThat(waiting).isNotDone();
        release.complete(null);
        assertThat(first.get().statusCode()).isEqualTo(200);
        assertThat(waiting.get().statusCode()).isEqualTo(200);
        assertThat(upstream.clientPorts()).as("both served over the one connection").hasSize(1);
    }

    private CompletableFuture<HttpResponse<String>> send(String path) {
        return client.sendAsync(HttpRequest.newBuilder(gateway.uri("http", path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private void start(String breakers) throws IOException, InterruptedException {
        upstream = new HttpUpstream("held").handle("/hold/", exchange -> {
            held.incrementAndGet();
            release.join();
            exchange.sendResponseHeaders(200, 2);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write("ok".getBytes());
            }
        });
        gateway = TestGateway.start(CONFIG, Map.of("BREAKERS", breakers, "PORT", upstream.port()));
    }
}
