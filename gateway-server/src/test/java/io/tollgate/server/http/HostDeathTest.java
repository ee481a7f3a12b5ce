package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.KillableUpstream;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One of two hosts dies under load (its listening socket closed and every connection reset at
 * once, as when its process is killed): the requests it held may fail, each answered in HTTP form;
 * every other request is served by the survivor; no client connection closes without an answer.
 * Upstreams over HTTP/1.1 and HTTP/2, clients over HTTP/1.1 keep-alive and HTTP/2.
 */
class HostDeathTest {

    private static final String CONFIG = GatewayYaml.gateway(1, """
            name: http
            protocols: [http1, h2c]
            """, """
            - match: { prefix: / }
              route:
                cluster: backend
                retry_policy: { retry_on: [connect-failure, reset], num_retries: 2 }
            """, """
            clusters:
              - name: backend
                protocol: ${PROTOCOL}
                endpoints: ${ENDPOINTS}
                health_check: { type: tcp, interval: 500ms, timeout: 200ms }
            """);
    private static final int CLIENTS = 8;
    private static final Duration LIMIT = Duration.ofSeconds(10);

    /** One client's loop: it sends requests while {@link #running} and records each outcome. */
    private interface Client {
        void run(int id) throws Exception;
    }

    private final StartedResources started = new StartedResources();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger ok = new AtomicInteger();
    private final Queue<String> failures = new ConcurrentLinkedQueue<>();
    private final Queue<String> closedWithoutAnswer = new ConcurrentLinkedQueue<>();
    private TestGateway gateway;

    @AfterEach
    void stop() {
        started.close();
    }

    @Test
    void http1KeepAliveClientsLoseAtMostTheRequestsTheDeadHostHeld() throws Exception {
        killOneHostUnderHttp1Load("http1");
    }

    @Test
    void http1ClientsOverHttp2UpstreamsLoseAtMostTheRequestsTheDeadHostHeld() throws Exception {
        killOneHostUnderHttp1Load("h2");
    }

    @Test
    void http2ClientStreamsLoseAtMostTheRequestsTheDeadHostHeld() throws Exception {
        KillableUpstream a = upstream("a", false);
        KillableUpstream b = upstream("b", false);
        start("http1", a.port(), b.port());
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        URI uri = gateway.uri("http", "/h2/");
        assertThat(client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).version())
                .isEqualTo(HttpClient.Version.HTTP_2);

        killUnderLoad(a, b, id -> {
            while (running.get()) {
                try {
                    HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri).build(),
                            HttpResponse.BodyHandlers.ofString());
                    answered(response.statusCode(), response.headers().firstValue("x-tollgate-error").orElse(null));
                } catch (IOException e) {
                    closedWithoutAnswer.add("client " + id + ": " + e);
                }
            }
        });

        assertThat(closedWithoutAnswer).as("streams reset without an answer").isEmpty();
        assertThat(failures).as("failed requests: at most those in flight to the dead host, each answered")
                .hasSizeLessThanOrEqualTo(CLIENTS)
                .allSatisfy(f -> assertThat(f).matches("50[234] upstream_.*"));
    }

    @Test
    void requestsNeverSentToADeadHostAreServedByTheOtherWithoutRetries() throws Exception {
        KillableUpstream a = upstream("a", false);
        KillableUpstream b = upstream("b", false);
        start("http1", a.port(), b.port());
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; a.answered() == 0 || b.answered() == 0; i++) {
            assertThat(i).as("both hosts reached").isLessThan(100);
            client.send(HttpRequest.newBuilder(gateway.uri("http", "/warm")).build(), HttpResponse.BodyHandlers.ofString());
        }
        a.kill();
        Await.until("the gateway saw the dead host's connections close", LIMIT,
                () -> openConnections() == b.openConnections());

        List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
        for (int i = 0; i < 4 * CLIENTS; i++) {
            burst.add(client.sendAsync(HttpRequest.newBuilder(gateway.uri("http", "/burst/" + i)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }

        assertThat(burst).extracting(r -> r.join().statusCode()).as("every request, wherever it was sent first")
                .containsOnly(200);
        assertThat(gateway.count("tollgate.upstream.rq.retry", "cluster", "backend")).isZero();
    }

    @Test
    void idleConnectionsToARestartedHostAreNotUsedOnceItsDeathIsLearned() throws Exception {
        // answers slow enough that the four warming requests are surely in flight together, on four connections
        KillableUpstream only = started.add(new KillableUpstream("only", false, 200));
        start("http1", only.port());
        List<RawHttp> clients = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            RawHttp client = new RawHttp(gateway.port("http"));
            started.add(client);
            clients.add(client);
            client.send("GET /warm/" + i + " HTTP/1.1\r\nHost: x\r\n\r\n");
        }
        for (RawHttp client : clients) {
            assertThat(client.read().status()).isEqualTo(200);
        }
        assertThat(only.openConnections()).as("four pooled connections").isEqualTo(4);

        only.restartForgettingConnections();

        for (int i = 0; i < 6; i++) {
            RawHttp.Response response = clients.get(0).send("GET /after/" + i + " HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertThat(response.status()).as("request %d after the restart", i).isEqualTo(200);
        }
        assertThat(only.staleHits()).as("pooled connections of the dead process tried").isEqualTo(1);
        assertThat(gateway.count("tollgate.upstream.rq.retry", "cluster", "backend")).isEqualTo(1);
    }

    private void killOneHostUnderHttp1Load(String protocol) throws Exception {
        boolean h2 = protocol.equals("h2");
        KillableUpstream a = upstream("a", h2);
        KillableUpstream b = upstream("b", h2);
        start(protocol, a.port(), b.port());
        int port = gateway.port("http");

        killUnderLoad(a, b, id -> {
            RawHttp connection = new RawHttp(port);
            for (int i = 0; running.get(); i++) {
                try {
                    RawHttp.Response response = connection
                            .send("GET /c" + id + "/" + i + " HTTP/1.1\r\nHost: x\r\n\r\n").read();
                    answered(response.status(), response.header("x-tollgate-error"));
                } catch (IOException e) {
                    closedWithoutAnswer.add("client " + id + " request " + i + ": " + e);
                    connection.close();
                    connection = new RawHttp(port);
                }
            }
            connection.close();
        });

        assertThat(closedWithoutAnswer).as("client connections closed without an answer").isEmpty();
        assertThat(failures).as("failed requests: at most those in flight to the dead host, each answered")
                .hasSizeLessThanOrEqualTo(CLIENTS)
                .allSatisfy(f -> assertThat(f).matches("50[234] upstream_.*"));
        assertThat(gateway.count("tollgate.upstream.cx.host_down", "cluster", "backend"))
                .as("the death learned by the pool").isPositive();
        failures.stream().map(f -> f.substring(4)).distinct().forEach(reason -> assertThat(
                gateway.count("tollgate.downstream.rq.error", "reason", reason)).as("failures counted as %s", reason)
                .isEqualTo(failures.stream().filter(f -> f.endsWith(" " + reason)).count()));
    }

    /** Counts an answer: a success, or a failure with its status and reason. */
    private void answered(int status, String reason) {
        if (status == 200) {
            ok.incrementAndGet();
        } else {
            failures.add(status + " " + reason);
        }
    }

    /**
     * Runs {@code client} on {@link #CLIENTS} threads, kills {@code a} once both hosts served, lets
     * the load run on the survivor for a while, then stops the clients and waits for them.
     */
    private void killUnderLoad(KillableUpstream a, KillableUpstream b, Client client) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            int id = c;
            clients.add(threads.submit(() -> {
                client.run(id);
                return null;
            }));
        }
        try {
            Await.until("both hosts serving", LIMIT, () -> a.answered() > 20 && b.answered() > 20);
            a.kill();
            int okAtKill = ok.get();
            Await.until("the survivor serving the load", LIMIT, () -> ok.get() > okAtKill + 200);
        } finally {
            running.set(false);
            for (Future<?> done : clients) {
                done.get(10, TimeUnit.SECONDS);
            }
            threads.shutdown();
        }
    }

    private double openConnections() {
        return gateway.gateway().metrics().registry().find("tollgate.upstream.cx.active").tag("cluster", "backend")
                .gauge().value();
    }

    private KillableUpstream upstream(String name, boolean h2) throws InterruptedException {
        KillableUpstream upstream = new KillableUpstream(name, h2, 2);
        started.add(upstream);
        return upstream;
    }

    private void start(String protocol, int... ports) throws InterruptedException {
        StringBuilder endpoints = new StringBuilder("[");
        for (int port : ports) {
            endpoints.append(endpoints.length() > 1 ? ", " : "").append("{ address: 127.0.0.1, port: ").append(port).append(" }");
        }
        gateway = started.add(TestGateway.start(CONFIG, Map.of("PROTOCOL", protocol, "ENDPOINTS", endpoints.append("]"))));
    }
}
