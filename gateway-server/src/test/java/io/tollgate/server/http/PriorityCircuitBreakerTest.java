package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpHandler;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The circuit breakers of each route priority over real sockets: while the default priority of a
 * cluster is at its max_requests, requests of a high-priority route still reach the upstream, and
 * the default-priority overflow is answered 503 at once and counted.
 */
class PriorityCircuitBreakerTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final String CONFIG = GatewayYaml.http("""
            - { match: { prefix: /urgent/ }, route: { cluster: guarded, priority: high } }
            - { match: { prefix: / }, route: { cluster: guarded } }
            """, """
            clusters:
              - name: guarded
                circuit_breakers:
                  thresholds:
                    - { priority: default, max_requests: 1 }
                    - { priority: high, max_requests: 1 }
                endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
            """);

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final CompletableFuture<Void> release = new CompletableFuture<>();
    private final AtomicInteger held = new AtomicInteger();
    private HttpUpstream upstream;
    private TestGateway gateway;

    @BeforeEach
    void start() throws IOException, InterruptedException {
        HttpHandler holding = exchange -> {
            held.incrementAndGet();
            release.join();
            exchange.sendResponseHeaders(200, 2);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write("ok".getBytes());
            }
        };
        upstream = new HttpUpstream("held").handle("/hold/", holding).handle("/urgent/", holding);
        gateway = TestGateway.start(CONFIG, Map.of("PORT", upstream.port()));
    }

    @AfterEach
    void stop() {
        release.complete(null);
        gateway.close();
        upstream.close();
    }

    @Test
    void highPriorityRequestsFlowWhileTheDefaultPriorityOverflows() throws Exception {
        CompletableFuture<HttpResponse<String>> first = send("/hold/1");
        Await.until("the default-priority request held upstream", LIMIT, () -> held.get() == 1);

        HttpResponse<String> overflowing = send("/hold/2").get();
        CompletableFuture<HttpResponse<String>> urgent = send("/urgent/3");

        assertThat(overflowing.statusCode()).isEqualTo(503);
        assertThat(overflowing.headers().firstValue("x-tollgate-error")).hasValue("upstream_overflow");
        assertThat(gateway.count("tollgate.upstream.rq.overflow", "cluster", "guarded")).isEqualTo(1);
        Await.until("the high-priority request reaching the upstream", LIMIT, () -> held.get() == 2);
        HttpResponse<String> urgentOverflowing = send("/urgent/4").get();
        assertThat(urgentOverflowing.statusCode()).as("high has a limit of its own").isEqualTo(503);
        release.complete(null);
        assertThat(first.get().statusCode()).isEqualTo(200);
        assertThat(urgent.get().statusCode()).isEqualTo(200);
    }

    private CompletableFuture<HttpResponse<String>> send(String path) {
        return client.sendAsync(HttpRequest.newBuilder(gateway.uri("http", path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
