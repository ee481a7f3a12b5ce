package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Retries over real sockets, HTTP/1.1 both sides: connect failures, resets and retriable
 * statuses retried on another host, the held-back answer of the last attempt, replayed request
 * bodies, the buffer limit, and the jittered backoff scheduled on the event loop.
 */
class RetryTest {

    private static final String CONFIG = GatewayYaml.http("""
            - match: { prefix: /plain/ }
              route: { cluster: backend }
            - match: { prefix: /strict/ }
              route: { cluster: backend, retry_policy: { retry_on: [5xx] } }
            - match: { prefix: /big/ }
              route:
                cluster: backend
                per_request_buffer_limit_bytes: 1024
                retry_policy: { retry_on: [5xx], retry_non_idempotent: true }
            - match: { prefix: / }
              route:
                cluster: backend
                retry_policy: ${RETRY}
            """, """
            clusters:
              - name: backend
                endpoints: ${ENDPOINTS}
                circuit_breakers: ${BREAKERS}
                outlier_detection: { consecutive_5xx: 0, consecutive_connect_failure: 2, base_ejection_time: 1m }
            """);
    private static final String DEFAULT_RETRY = "{ retry_on: [connect-failure, reset, 5xx], retry_non_idempotent: true }";
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<AutoCloseable> upstreams = new ArrayList<>();
    private TestGateway gateway;

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        for (AutoCloseable upstream : upstreams) {
            upstream.close();
        }
    }

    @Test
    void retriesOnAnotherHostWhenOneRefusesConnectionsAndReportsEachAttempt() throws Exception {
        int dead = FreePort.pick();
        start(DEFAULT_RETRY, dead, upstream("a").port(), upstream("b").port());

        assertThat(gateway.servedBy("http", "/work/", 12)).containsExactlyInAnyOrder("a", "b");

        assertThat(gateway.count("tollgate.upstream.rq.redispatch", "cluster", "backend"))
                .as("never sent, so moved without a retry").isGreaterThanOrEqualTo(2);
        assertThat(retries()).isZero();
        // the ejection is decided on the control thread after the second report
        Await.until("two connect failures reported, so ejected", Duration.ofSeconds(10),
                () -> gateway.host("backend", dead).ejected());
    }

    @Test
    void retriesAConnectionClosedBeforeTheResponse() throws Exception {
        RawUpstream closing = new RawUpstream(socket -> {
            readHead(socket.getInputStream());
            socket.close();
        });
        upstreams.add(closing);
        start(DEFAULT_RETRY, closing.port(), upstream("b").port());

        assertThat(gateway.servedBy("http", "/work/", 6)).containsExactly("b");
        assertThat(closing.accepted()).isPositive();
        assertThat(retries()).isEqualTo(closing.accepted());
        assertThat(List.of(get("/plain/1").statusCode(), get("/plain/2").statusCode()))
                .as("a route without retries answers the reset itself").containsExactlyInAnyOrder(200, 502);
    }

    @Test
    void retries503OnAnotherHostAndForwardsTheLastAttemptsAnswer() throws Exception {
        AtomicInteger answers = new AtomicInteger();
        Map<String, AtomicInteger> downBy = new ConcurrentHashMap<>();
        HttpUpstream a = upstream("a").answer("/flaky/", () -> 503);
        HttpUpstream b = upstream("b");
        for (String name : List.of("a", "b")) {
            (name.equals("a") ? a : b).handle("/down/", exchange -> {
                downBy.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
                reply(exchange, 503, "answer " + answers.incrementAndGet());
            });
        }
        start(DEFAULT_RETRY, a.port(), b.port());

        assertThat(gateway.servedBy("http", "/flaky/", 6)).containsExactly("b");
        double retriedSoFar = retries();

        HttpResponse<String> first = get("/down/1");
        HttpResponse<String> second = get("/down/2");

        assertThat(List.of(first.statusCode(), second.statusCode())).containsOnly(503);
        assertThat(first.body()).as("the second attempt's answer").isEqualTo("answer 2");
        assertThat(second.body()).isEqualTo("answer 4");
        assertThat(first.headers().firstValue("x-tollgate-error")).isEmpty();
        assertThat(downBy).as("each request tried both hosts").containsOnlyKeys("a", "b");
        assertThat(downBy.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(2));
        assertThat(retries() - retriedSoFar).isEqualTo(2);
        assertThat(gateway.count("tollgate.upstream.rq.retry_limit_exceeded", "cluster", "backend")).isEqualTo(2);
    }

    @Test
    void aRetriedPostCarriesItsWholeBodyOnlyWhenNonIdempotentRetriesAreAllowed() throws Exception {
        AtomicInteger refused = new AtomicInteger();
        HttpUpstream a = upstream("a");
        HttpUpstream b = upstream("b");
        for (String path : List.of("/upload/", "/strict/")) {
            a.handle(path, exchange -> {
                HttpUpstream.drain(exchange.getRequestBody());
                refused.incrementAndGet();
                reply(exchange, 503, "a refused");
            });
            b.handle(path, RetryTest::replyDigest);
        }
        start(DEFAULT_RETRY, a.port(), b.port());
        byte[] body = new byte[48 * 1024];
        new Random(7).nextBytes(body);

        for (int i = 0; i < 4; i++) {
            HttpResponse<String> sized = post("/upload/" + i, HttpRequest.BodyPublishers.ofByteArray(body));
            HttpResponse<String> chunked = post("/upload/c" + i,
                    HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)));
            assertThat(sized.statusCode()).isEqualTo(200);
            assertThat(sized.body()).isEqualTo(digest(body));
            assertThat(chunked.statusCode()).isEqualTo(200);
            assertThat(chunked.body()).isEqualTo(digest(body));
        }
        assertThat(refused.get()).isPositive();
        assertThat(retries()).isEqualTo(refused.get());

        int refusedBefore = refused.get();
        List<Integer> strict = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            strict.add(post("/strict/" + i, HttpRequest.BodyPublishers.ofByteArray(body)).statusCode());
        }
        assertThat(strict).containsExactlyInAnyOrder(200, 503);
        assertThat(refused.get() - refusedBefore).isEqualTo(1);
    }

    @Test
    void aBodyOverTheBufferLimitStreamsThroughAndIsNotRetried() throws Exception {
        HttpUpstream a = upstream("a").handle("/big/", exchange -> {
            HttpUpstream.drain(exchange.getRequestBody());
            reply(exchange, 503, "a refused");
        });
        HttpUpstream b = upstream("b").handle("/big/", RetryTest::replyDigest);
        start(DEFAULT_RETRY, a.port(), b.port());
        byte[] body = new byte[4096];
        new Random(11).nextBytes(body);

        List<HttpResponse<String>> responses = List.of(
                post("/big/1", HttpRequest.BodyPublishers.ofByteArray(body)),
                post("/big/2", HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))));

        assertThat(responses).extracting(HttpResponse::statusCode).containsExactlyInAnyOrder(200, 503);
        assertThat(responses).filteredOn(r -> r.statusCode() == 200).extracting(HttpResponse::body)
                .containsExactly(digest(body));
        assertThat(retries()).isZero();
    }

    @Test
    void backsOffBetweenAttemptsOnTheEventLoopWithoutHoldingOtherRequests() throws Exception {
        Map<String, Long> firstSeen = new ConcurrentHashMap<>();
        Map<String, Long> gaps = new ConcurrentHashMap<>();
        HttpUpstream only = upstream("only").handle("/backoff/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            long now = System.nanoTime();
            Long first = firstSeen.putIfAbsent(path, now);
            if (first == null) {
                reply(exchange, 503, "first try");
                return;
            }
            gaps.put(path, now - first);
            reply(exchange, 200, "second try");
        });
        start("{ retry_on: [5xx], retry_back_off: { base_interval: 200ms, max_interval: 200ms } }",
                "{ max_retries: 100 }", only.port());
        int requests = 16;

        long startNanos = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            all.add(client.sendAsync(HttpRequest.newBuilder(gateway.uri("http", "/backoff/" + i)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> response : all) {
            assertThat(response.get().statusCode()).isEqualTo(200);
        }
        long wallNanos = System.nanoTime() - startNanos;

        assertThat(gaps).hasSize(requests);
        long sum = gaps.values().stream().mapToLong(Long::longValue).sum();
        assertThat(gaps.values()).allSatisfy(gap -> assertThat(Duration.ofNanos(gap))
                .isLessThan(Duration.ofMillis(200 + 300)));
        assertThat(Duration.ofNanos(sum / requests)).as("mean backoff, a uniform draw below 200 ms")
                .isGreaterThan(Duration.ofMillis(40));
        assertThat(wallNanos).as("backoffs overlap: none blocks the event loop").isLessThan(sum);
    }

    @Test
    void theRetryBudgetCapsConcurrentRetries() throws Exception {
        RetriesUnderLoad load = new RetriesUnderLoad("{ retry_budget: { budget_percent: 20, min_retry_concurrency: 2 } }",
                20);

        assertThat(load.retried).isBetween(2, 4);
        assertThat(load.overflowed).isEqualTo(20 - load.retried);
    }

    @Test
    void maxRetriesCapsConcurrentRetriesWithoutABudget() throws Exception {
        RetriesUnderLoad load = new RetriesUnderLoad("{ max_retries: 1 }", 6);

        assertThat(load.retried).isEqualTo(1);
        assertThat(load.overflowed).isEqualTo(5);
    }

    /**
     * Sends {@code requests} GETs at once to one host that answers each first attempt 503 and
     * holds each retry until every first attempt was answered, so that every retry granted is
     * active at once; then releases them and checks the answers.
     */
    private final class RetriesUnderLoad {

        final int retried;
        final int overflowed;

        RetriesUnderLoad(String breakers, int requests) throws Exception {
            Map<String, Boolean> seen = new ConcurrentHashMap<>();
            CompletableFuture<Void> release = new CompletableFuture<>();
            AtomicInteger held = new AtomicInteger();
            HttpUpstream only = upstream("only").handle("/load/", exchange -> {
                if (seen.putIfAbsent(exchange.getRequestURI().getPath(), true) == null) {
                    reply(exchange, 503, "first try");
                    return;
                }
                held.incrementAndGet();
                release.join();
                reply(exchange, 200, "retried");
            });
            start("{ retry_on: [5xx], retry_back_off: { base_interval: 1ms, max_interval: 1ms } }", breakers,
                    only.port());
            List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                all.add(client.sendAsync(HttpRequest.newBuilder(gateway.uri("http", "/load/" + i)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            Await.until("every first attempt answered", LIMIT, () -> seen.size() == requests
                    && all.stream().filter(CompletableFuture::isDone).count() + held.get() == requests);
            retried = (int) retries();
            overflowed = (int) gateway.count("tollgate.upstream.rq.retry_overflow", "cluster", "backend");
            assertThat(held.get()).isEqualTo(retried);
            assertThat(all.stream().filter(CompletableFuture::isDone).map(CompletableFuture::join))
                    .allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(503));
            release.complete(null);
            assertThat(all.stream().map(CompletableFuture::join).filter(r -> r.statusCode() == 200)).hasSize(retried);
        }
    }

    private double retries() {
        return gateway.count("tollgate.upstream.rq.retry", "cluster", "backend");
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(gateway.uri("http", path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, HttpRequest.BodyPublisher body) throws IOException, InterruptedException {
        URI uri = gateway.uri("http", path);
        return client.send(HttpRequest.newBuilder(uri).POST(body).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String upstreamOf(HttpResponse<String> response) {
        return response.headers().firstValue("x-upstream").orElse("?");
    }

    private void start(String retryPolicy, int... ports) throws InterruptedException {
        start(retryPolicy, "{}", ports);
    }

    private void start(String retryPolicy, String breakers, int... ports) throws InterruptedException {
        gateway = TestGateway.start(CONFIG, Map.of("RETRY", retryPolicy, "BREAKERS", breakers, "ENDPOINTS", endpoints(ports)));
    }

    private static String endpoints(int... ports) {
        StringBuilder endpoints = new StringBuilder("[");
        for (int port : ports) {
            endpoints.append(endpoints.length() > 1 ? ", " : "").append("{ address: 127.0.0.1, port: ").append(port).append(" }");
        }
        return endpoints.append("]").toString();
    }

    private HttpUpstream upstream(String name) throws IOException {
        HttpUpstream upstream = new HttpUpstream(name);
        upstreams.add(upstream);
        return upstream;
    }


    private static void readHead(InputStream in) throws IOException {
        int matched = 0;
        int c;
        while (matched < 4 && (c = in.read()) >= 0) {
            matched = (c == "\r\n\r\n".charAt(matched)) ? matched + 1 : (c == '\r' ? 1 : 0);
        }
    }

    private static void reply(HttpExchange exchange, int status, String text) throws IOException {
        exchange.getResponseHeaders().set("X-Upstream", "handler");
        HttpUpstream.respond(exchange, status, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void replyDigest(HttpExchange exchange) throws IOException {
        reply(exchange, 200, digest(exchange.getRequestBody().readAllBytes()));
    }

    private static String digest(byte[] body) {
        try {
            return body.length + ":" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
