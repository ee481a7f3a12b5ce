package io.tollgate.server.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.remoting.rpc.RpcServer;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.router.host.Host;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Active health checks over real sockets: hosts that die or fail their probe leave rotation with
 * no request failing afterwards, and come back once they pass again; a new host waits for its
 * first passing probe; verdicts rebuild the cluster on the control thread, never on an event loop.
 */
class ActiveHealthCheckTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final String ROUTES = GatewayYaml.gateway(2, "name: http", """
            - { match: { prefix: / }, route: { cluster: checked } }
            """, """
            clusters:
              - name: checked
                health_check: ${CHECK}
                endpoints:
                  - { address: 127.0.0.1, port: ${A} }
                  - { address: 127.0.0.1, port: ${B} }
                  - { address: 127.0.0.1, port: ${C} }
            """);

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Set<AutoCloseable> resources = new HashSet<>();
    private TestGateway gateway;

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

    @Test
    void aHostFailingItsHttpProbeLeavesRotationAndReturnsAfterTheHealthyThreshold() throws Exception {
        HttpUpstream a = upstream("a");
        HttpUpstream b = upstream("b");
        HttpUpstream c = upstream("c");
        AtomicBoolean failing = new AtomicBoolean();
        AtomicInteger passesSinceRecovery = new AtomicInteger();
        a.answer("/health", () -> 200);
        c.answer("/health", () -> 200);
        b.answer("/health", () -> {
            if (failing.get()) {
                return 503;
            }
            passesSinceRecovery.incrementAndGet();
            return 204;
        });
        start("{ type: http, interval: 50ms, timeout: 1s, healthy_threshold: 3, unhealthy_threshold: 2,"
                + " http: { path: /health, expected_statuses: [200-299] } }", a, b, c);
        Host hostB = host(b);
        // the first probe result decides at once: let b pass one before it starts failing
        Await.until("b probed once", LIMIT, () -> passesSinceRecovery.get() > 0);

        failing.set(true);
        Await.until("b unhealthy and out of rotation", LIMIT, () -> !hostB.healthy() && !inRotation(hostB));

        assertThat(servedBy(30)).containsExactlyInAnyOrder("a", "c");
        assertThat(adminClusters()).contains("\"address\":\"127.0.0.1:" + b.port() + "\"", "\"healthy\":false");

        passesSinceRecovery.set(0);
        failing.set(false);
        Await.until("b healthy again and in rotation", LIMIT, () -> hostB.healthy() && inRotation(hostB));

        assertThat(passesSinceRecovery.get()).isGreaterThanOrEqualTo(3);
        assertThat(servedBy(30)).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(gateway.count("tollgate.upstream.health_check.failure", "cluster", "checked")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void anHttpProbeAnsweredWithAnUnexpectedStatusFails() throws Exception {
        HttpUpstream a = upstream("a");
        HttpUpstream b = upstream("b");
        HttpUpstream c = upstream("c");
        start("{ type: http, interval: 50ms, timeout: 1s, http: { path: /echo, expected_statuses: [204, 300-399] } }", a, b, c);

        Await.until("every host unhealthy", LIMIT,
                () -> gateway.gateway().snapshot().clusters().cluster("checked").hosts().stream().noneMatch(Host::healthy));
    }

    @Test
    void aHostThatDiesIsFoundByTcpProbesAndComesBackWhenItListensAgain() throws Exception {
        HttpUpstream a = upstream("a");
        HttpUpstream b = upstream("b");
        HttpUpstream c = upstream("c");
        start("{ type: tcp, interval: 50ms, timeout: 500ms, healthy_threshold: 2, unhealthy_threshold: 2 }", a, b, c);
        Host hostB = host(b);
        assertThat(servedBy(30)).containsExactlyInAnyOrder("a", "b", "c");

        b.close();
        Await.until("b unhealthy and out of rotation", LIMIT, () -> !hostB.healthy() && !inRotation(hostB));

        assertThat(servedBy(30)).containsExactlyInAnyOrder("a", "c");

        upstream(new HttpUpstream("b", b.port()));
        Await.until("b healthy again and in rotation", LIMIT, () -> hostB.healthy() && inRotation(hostB));

        assertThat(servedBy(30)).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void boltHeartbeatsFindABoltServerThatStops() throws Exception {
        RpcServer a = boltServer();
        RpcServer b = boltServer();
        RpcServer c = boltServer();
        gateway = TestGateway.start(ROUTES, Map.of("CHECK", "{ type: bolt, interval: 50ms, timeout: 500ms, unhealthy_threshold: 2 }",
                "A", a.port(), "B", b.port(), "C", c.port()));
        Host hostB = hostOnPort(b.port());
        AtomicInteger probes = new AtomicInteger();
        Await.until("several passing heartbeats", LIMIT, () -> {
            probes.set((int) gateway.count("tollgate.upstream.health_check.attempt", "cluster", "checked"));
            return probes.get() >= 9;
        });
        assertThat(gateway.count("tollgate.upstream.health_check.failure", "cluster", "checked")).isZero();
        assertThat(hostB.healthy()).isTrue();

        b.shutdown();

        Await.until("b unhealthy", LIMIT, () -> !hostB.healthy());
        assertThat(hostOnPort(a.port()).healthy()).isTrue();
        assertThat(hostOnPort(c.port()).healthy()).isTrue();
    }

    @Test
    void aBoltHeartbeatToAnHttpServerFails() throws Exception {
        start("{ type: bolt, interval: 50ms, timeout: 500ms }", upstream("a"), upstream("b"), upstream("c"));

        Await.until("every host unhealthy", LIMIT,
                () -> gateway.gateway().snapshot().clusters().cluster("checked").hosts().stream().noneMatch(Host::healthy));
    }

    @Test
    void aHostAddedByAReloadTakesTrafficOnlyAfterItsFirstPassingCheck() throws Exception {
        HttpUpstream a = upstream("a");
        HttpUpstream b = upstream("b");
        HttpUpstream c = upstream("c");
        a.answer("/health", () -> 200);
        b.answer("/health", () -> 200);
        CountDownLatch cMayAnswer = new CountDownLatch(1);
        AtomicInteger cProbes = new AtomicInteger();
        c.answer("/health", () -> {
            cProbes.incrementAndGet();
            try {
                cMayAnswer.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 200;
        });
        String check = "{ type: http, interval: 100ms, timeout: 5s, http: { path: /health } }";
        gateway = TestGateway.start(checkedCluster(check, "round_robin", a, b), Map.of());
        assertThat(servedBy(20)).containsExactlyInAnyOrder("a", "b");

        gateway.gateway().reload(ConfigLoader.parse("admin: { address: 127.0.0.1, port: 0 }\n"
                + checkedCluster(check, "round_robin", a, b, c)));
        Await.until("c's first probe sent", LIMIT, () -> cProbes.get() > 0);
        Host hostC = host(c);
        assertThat(hostC.pendingFirstCheck()).isTrue();
        assertThat(hostC.available()).isFalse();

        assertThat(servedBy(40)).containsExactlyInAnyOrder("a", "b");

        cMayAnswer.countDown();
        Await.until("c in rotation", LIMIT, () -> hostC.available() && inRotation(hostC));
        assertThat(hostC.pendingFirstCheck()).isFalse();
        assertThat(servedBy(60)).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void startUpWaitsForEveryHostsFirstVerdictBeforeServing() throws Exception {
        HttpUpstream a = upstream("a");
        HttpUpstream slow = upstream("slow");
        a.answer("/health", () -> 200);
        slow.answer("/health", () -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 200;
        });

        gateway = TestGateway.start(checkedCluster("{ type: http, interval: 10s, timeout: 2s, http: { path: /health } }",
                "round_robin", a, slow), Map.of());

        assertThat(host(slow).pendingFirstCheck()).isFalse();
        assertThat(servedBy(20)).containsExactlyInAnyOrder("a", "slow");
    }

    @Test
    void flippingVerdictsRebuildTheClusterOnTheControlThreadWhileRequestsAreServed() throws Exception {
        List<HttpUpstream> upstreams = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            HttpUpstream upstream = upstream("u" + i);
            AtomicInteger probes = new AtomicInteger();
            boolean flapping = i < 2;
            upstream.answer("/health", () -> flapping && probes.incrementAndGet() % 2 == 0 ? 503 : 200);
            upstreams.add(upstream);
        }
        gateway = TestGateway.start(checkedCluster("{ type: http, interval: 100ms, timeout: 2s, healthy_threshold: 1,"
                + " unhealthy_threshold: 1, http: { path: /health } }", "recording_maglev",
                upstreams.toArray(HttpUpstream[]::new)), Map.of());
        RebuildRecordingMaglevFactory.drainRebuilds();

        AtomicBoolean sending = new AtomicBoolean(true);
        AtomicInteger served = new AtomicInteger();
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        List<Thread> senders = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Thread sender = new Thread(() -> {
                while (sending.get()) {
                    try {
                        HttpResponse<String> response = client.send(HttpRequest.newBuilder(gateway.uri("http", "/work"))
                                .timeout(LIMIT).build(), HttpResponse.BodyHandlers.ofString());
                        if (response.statusCode() == 200) {
                            served.incrementAndGet();
                        } else {
                            failures.add(response.statusCode() + " " + response.body());
                        }
                    } catch (IOException e) {
                        failures.add(e.toString());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }, "rebuild-test-sender-" + i);
            sender.start();
            senders.add(sender);
        }
        List<String> rebuilds = new ArrayList<>();
        Await.until("verdicts flipped several times", LIMIT, () -> {
            RebuildRecordingMaglevFactory.drainRebuilds().forEach(r -> rebuilds.add(r.thread()));
            return rebuilds.size() >= 8
                    && gateway.count("tollgate.upstream.health_check.failure", "cluster", "checked") >= 4;
        });
        sending.set(false);
        for (Thread sender : senders) {
            sender.join(LIMIT.toMillis());
        }

        assertThat(rebuilds).containsOnly("tollgate-control");
        assertThat(failures).isEmpty();
        assertThat(served.get()).isPositive();
    }

    @Test
    void aClusterFallingIntoPanicHasEveryHostsTableBuiltOnTheControlThread() throws Exception {
        AtomicBoolean failing = new AtomicBoolean();
        HttpUpstream a = upstream("a");
        HttpUpstream b = upstream("b");
        HttpUpstream c = upstream("c");
        b.answer("/health", () -> failing.get() ? 503 : 200);
        c.answer("/health", () -> failing.get() ? 503 : 200);
        gateway = TestGateway.start(checkedCluster("{ type: http, interval: 100ms, timeout: 2s, healthy_threshold: 1,"
                + " unhealthy_threshold: 1, http: { path: /health } }", "recording_maglev", a, b, c), Map.of());
        Await.until("every host healthy", LIMIT, () -> gateway.gateway().snapshot().clusters().cluster("checked").hosts()
                .stream().allMatch(Host::healthy));
        RebuildRecordingMaglevFactory.drainRebuilds();

        failing.set(true);
        List<RebuildRecordingMaglevFactory.Rebuild> rebuilds = new ArrayList<>();
        Await.until("one host of three healthy, below the panic threshold, and a table of every host built", LIMIT,
                () -> {
                    rebuilds.addAll(RebuildRecordingMaglevFactory.drainRebuilds());
                    return gateway.gateway().snapshot().clusters().cluster("checked").hosts().stream()
                            .filter(Host::healthy).count() == 1 && rebuilds.stream().anyMatch(r -> r.hosts() == 3);
                });

        assertThat(rebuilds).extracting(RebuildRecordingMaglevFactory.Rebuild::thread).containsOnly("tollgate-control");
        assertThat(servedBy(60)).containsExactlyInAnyOrder("a", "b", "c");
    }

    /** A gateway routing everything to cluster {@code checked} of {@code upstreams}, balanced by {@code policy}. */
    private static String checkedCluster(String check, String policy, HttpUpstream... upstreams) {
        StringBuilder endpoints = new StringBuilder();
        for (HttpUpstream upstream : upstreams) {
            endpoints.append("      - { address: 127.0.0.1, port: ").append(upstream.port()).append(" }\n");
        }
        return GatewayYaml.gateway(2, "name: http", """
                - { match: { prefix: / }, route: { cluster: checked } }
                """, """
                clusters:
                  - name: checked
                    lb_policy: %s
                    health_check: %s
                    endpoints:
                %s""".formatted(policy, check, endpoints));
    }

    private void start(String check, HttpUpstream a, HttpUpstream b, HttpUpstream c) throws InterruptedException {
        gateway = TestGateway.start(ROUTES, Map.of("CHECK", check, "A", a.port(), "B", b.port(), "C", c.port()));
    }

    private HttpUpstream upstream(String name) throws IOException {
        return upstream(new HttpUpstream(name));
    }

    private HttpUpstream upstream(HttpUpstream upstream) {
        resources.add(upstream);
        return upstream;
    }

    private RpcServer boltServer() {
        RpcServer server = new RpcServer("127.0.0.1", 0, false);
        server.startup();
        resources.add(() -> {
            if (server.isStarted()) {
                server.shutdown();
            }
        });
        return server;
    }

    private Host host(HttpUpstream upstream) {
        return hostOnPort(upstream.port());
    }

    /** Whether the event loops send requests to {@code host}; see {@link TestGateway#inRotation}. */
    private boolean inRotation(Host host) {
        return gateway.inRotation("checked").contains(host.id());
    }

    private Host hostOnPort(int port) {
        return gateway.host("checked", port);
    }

    private Set<String> servedBy(int count) throws Exception {
        return gateway.servedBy("http", "/work/", count);
    }

    private String adminClusters() throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + gateway.gateway().adminPort() + "/clusters");
        return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body().replace(" ", "");
    }
}
