package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpHandler;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code mirror} filter with HTTP/1.1 clients: copies reach a real shadow upstream with the
 * {@code -shadow} host and the body, the primary's answers are unaffected when the shadow is
 * down, never answers, or is held until every primary answer arrived, and a percentage holds
 * over many requests.
 */
class MirrorHttpTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: http
                port: 0
                protocols: [http1]
                filters:
                  - { name: mirror, cluster: shadow, max_body_bytes: 64 }
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - name: down
                          match: { prefix: /down }
                          route: { cluster: primary }
                          filters: { mirror: { cluster: down } }
                        - name: silent
                          match: { prefix: /silent }
                          route: { cluster: primary, timeout: 500ms }
                          filters: { mirror: { cluster: silent } }
                        - name: held
                          match: { prefix: /held }
                          route: { cluster: primary, timeout: 30s }
                          filters: { mirror: { cluster: held } }
                        - name: sampled
                          match: { prefix: /sampled }
                          route: { cluster: primary }
                          filters: { mirror: { cluster: sampled, percent: 25, seed: 7 } }
                        - name: unmirrored
                          match: { prefix: /unmirrored }
                          route: { cluster: primary }
                          filters: { mirror: { disabled: true } }
                        - name: teapot
                          match: { prefix: /teapot }
                          direct_response: { status: 418, body: "tea" }
                        - name: all
                          match: { prefix: / }
                          route: { cluster: primary }
            clusters:
              - name: primary
                endpoints: [ { address: 127.0.0.1, port: ${PRIMARY} } ]
              - name: shadow
                endpoints: [ { address: 127.0.0.1, port: ${SHADOW} } ]
              - name: down
                endpoints: [ { address: 127.0.0.1, port: ${DOWN} } ]
              - name: silent
                endpoints: [ { address: 127.0.0.1, port: ${SILENT} } ]
              - name: held
                endpoints: [ { address: 127.0.0.1, port: ${HELD} } ]
              - name: sampled
                endpoints: [ { address: 127.0.0.1, port: ${SAMPLED} } ]
            """;

    /** What the shadow saw of each copy: method, target, host and body length. */
    private static final Queue<String> shadowed = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger silentlyReceived = new AtomicInteger();
    private static final AtomicInteger heldReceived = new AtomicInteger();
    private static final AtomicInteger sampledReceived = new AtomicInteger();
    private static final CountDownLatch release = new CountDownLatch(1);
    private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static HttpUpstream primary;
    private static HttpUpstream shadow;
    private static HttpUpstream held;
    private static HttpUpstream sampled;
    private static RawUpstream silent;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        primary = new HttpUpstream("primary");
        HttpHandler recording = exchange -> {
            long body = HttpUpstream.drain(exchange.getRequestBody());
            shadowed.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                    + exchange.getRequestHeaders().getFirst("Host") + " " + body);
            HttpUpstream.respond(exchange, 200, "shadow".getBytes(StandardCharsets.UTF_8));
        };
        shadow = new HttpUpstream("shadow").handle("/items", recording).handle("/orders", recording)
                .handle("/large", recording).handle("/teapot", recording).handle("/unmirrored", recording);
        held = new HttpUpstream("held").handle("/held", exchange -> {
            heldReceived.incrementAndGet();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            HttpUpstream.respond(exchange, 200, new byte[0]);
        });
        sampled = new HttpUpstream("sampled").handle("/sampled", exchange -> {
            sampledReceived.incrementAndGet();
            HttpUpstream.respond(exchange, 200, new byte[0]);
        });
        silent = new RawUpstream(socket -> {
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII));
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("GET ")) {
                    silentlyReceived.incrementAndGet();
                }
            }
        });
        gateway = TestGateway.start(CONFIG, Map.of("PRIMARY", primary.port(), "SHADOW", shadow.port(),
                "DOWN", FreePort.pick(), "SILENT", silent.port(), "HELD", held.port(), "SAMPLED", sampled.port()));
    }

    @AfterAll
    static void stop() throws Exception {
        release.countDown();
        if (gateway != null) {
            gateway.close();
        }
        primary.close();
        shadow.close();
        held.close();
        sampled.close();
        silent.close();
    }

    @Test
    void copiesReachTheShadowWithItsHostAndBodyWhileThePrimaryAnswers() throws Exception {
        shadowed.clear();
        HttpResponse<String> get = send(HttpRequest.newBuilder(gateway.uri("http", "/items?id=1")).GET());
        HttpResponse<String> post = send(HttpRequest.newBuilder(gateway.uri("http", "/orders"))
                .POST(HttpRequest.BodyPublishers.ofString("x".repeat(40))));

        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(get.headers().firstValue("x-upstream")).contains("primary");
        assertThat(post.body()).contains("body-bytes: 40");
        String host = "127.0.0.1-shadow:" + gateway.port("http");
        Await.until("two copies at the shadow", Duration.ofSeconds(5), () -> shadowed.size() == 2);
        assertThat(shadowed).containsExactlyInAnyOrder("GET /items?id=1 " + host + " 0", "POST /orders " + host + " 40");
        Await.until("two copies counted sent", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.filter.mirror.sent", "cluster", "shadow") >= 2);
        assertThat(gateway.count("tollgate.upstream.rq", "cluster", "shadow")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void chunkedBodyIsCopiedWholeWithItsLength() throws Exception {
        HttpResponse<String> post = send(HttpRequest.newBuilder(gateway.uri("http", "/orders/chunked"))
                .POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream("z".repeat(50).getBytes(StandardCharsets.US_ASCII)))));

        assertThat(post.statusCode()).isEqualTo(200);
        assertThat(post.body()).contains("h-transfer-encoding: chunked", "body-bytes: 50");
        String host = "127.0.0.1-shadow:" + gateway.port("http");
        Await.until("the chunked copy at the shadow", Duration.ofSeconds(5),
                () -> shadowed.contains("POST /orders/chunked " + host + " 50"));
    }

    @Test
    void bodyOverTheLimitIsNotCopiedAndCountedSkipped() throws Exception {
        double skipped = gateway.count("tollgate.filter.mirror.skipped", "cluster", "shadow");
        HttpResponse<String> post = send(HttpRequest.newBuilder(gateway.uri("http", "/large"))
                .POST(HttpRequest.BodyPublishers.ofString("y".repeat(1000))));

        assertThat(post.statusCode()).isEqualTo(200);
        assertThat(post.body()).contains("body-bytes: 1000");
        Await.until("the copy counted skipped", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.filter.mirror.skipped", "cluster", "shadow") == skipped + 1);
        assertThat(shadowed).noneMatch(copy -> copy.startsWith("POST /large"));
    }

    @Test
    void requestsTheGatewayAnswersItselfAndDisabledRoutesAreNotCopied() throws Exception {
        double skipped = gateway.count("tollgate.filter.mirror.skipped", "cluster", "shadow");
        assertThat(send(HttpRequest.newBuilder(gateway.uri("http", "/teapot"))).statusCode()).isEqualTo(418);
        assertThat(send(HttpRequest.newBuilder(gateway.uri("http", "/unmirrored"))).statusCode()).isEqualTo(200);

        Await.until("the teapot's copy counted skipped", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.filter.mirror.skipped", "cluster", "shadow") == skipped + 1);
        assertThat(shadowed).noneMatch(copy -> copy.contains("/teapot") || copy.contains("/unmirrored"));
    }

    @Test
    void shadowDownLeavesEveryPrimaryAnswerIntact() throws Exception {
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("http", "/down/" + i)));
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("target: /down/" + i);
        }
        Await.until("20 failed copies", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.filter.mirror.failed", "cluster", "down") == 20);
    }

    @Test
    void shadowThatNeverAnswersLeavesEveryPrimaryAnswerIntactAndTimesOut() throws Exception {
        for (int i = 0; i < 10; i++) {
            assertThat(send(HttpRequest.newBuilder(gateway.uri("http", "/silent/" + i))).statusCode()).isEqualTo(200);
        }
        Await.until("copies at the silent shadow", Duration.ofSeconds(5), () -> silentlyReceived.get() == 10);
        Await.until("10 copies timed out", Duration.ofSeconds(10),
                () -> gateway.count("tollgate.filter.mirror.failed", "cluster", "silent") == 10);
        assertThat(gateway.count("tollgate.upstream.rq.timeout", "cluster", "silent")).isEqualTo(10);
    }

    /**
     * The shadow answers none of its copies until every primary answer arrived: had a primary
     * waited for its copy, it would not have come back at all.
     */
    @Test
    void primaryAnswersArriveBeforeTheShadowAnswers() throws Exception {
        for (int i = 0; i < 10; i++) {
            assertThat(send(HttpRequest.newBuilder(gateway.uri("http", "/held/" + i))).statusCode()).isEqualTo(200);
        }
        Await.until("the copies at the held shadow", Duration.ofSeconds(5), () -> heldReceived.get() == 10);
        assertThat(gateway.count("tollgate.filter.mirror.sent", "cluster", "held")).isZero();

        release.countDown();

        Await.until("the copies answered", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.filter.mirror.sent", "cluster", "held") == 10);
    }

    @Test
    void percentageHoldsOverManyRequests() throws Exception {
        int requests = 400;
        for (int i = 0; i < requests; i++) {
            assertThat(send(HttpRequest.newBuilder(gateway.uri("http", "/sampled"))).statusCode()).isEqualTo(200);
        }
        Await.until("the sampled copies answered", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.filter.mirror.sent", "cluster", "sampled") == sampledReceived.get());
        assertThat(sampledReceived.get()).isBetween(70, 130);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
