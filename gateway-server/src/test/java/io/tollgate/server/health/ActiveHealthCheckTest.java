package io.tollgate.server.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.remoting.rpc.RpcServer;
import io.tollgate.router.cluster.Host;
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
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Active health checks over real sockets: hosts that die or fail their probe leave rotation with
 * no request failing afterwards, and come back once they pass again.
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
        Await.until("b unhealthy", LIMIT, () -> !hostB.healthy());

        assertThat(servedBy(30)).containsExactlyInAnyOrder("a", "c");
        assertThat(adminClusters()).contains("\"address\":\"127.0.0.1:" + b.port() + "\"", "\"healthy\":false");

        passesSinceRecovery.set(0);
        failing.set(false);
        Await.until("b healthy again", LIMIT, hostB::healthy);

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
        Await.until("b unhealthy", LIMIT, () -> !hostB.healthy());

        assertThat(servedBy(30)).containsExactlyInAnyOrder("a", "c");

        upstream(new HttpUpstream("b", b.port()));
        Await.until("b healthy again", LIMIT, hostB::healthy);

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
