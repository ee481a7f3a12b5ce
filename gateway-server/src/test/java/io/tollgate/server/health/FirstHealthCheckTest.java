package io.tollgate.server.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.ConfigLoader;
import io.tollgate.router.cluster.Host;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With health checking configured, a host added by a reload takes no request until its first
 * check passes (Envoy's hosts pending their first health check), and the hosts already there
 * keep serving meanwhile.
 */
class FirstHealthCheckTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final String CHECK = "{ type: http, interval: 100ms, timeout: 5s, http: { path: /health } }";

    private final List<AutoCloseable> resources = new ArrayList<>();
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
        gateway = TestGateway.start(yaml(a, b), Map.of());
        assertThat(gateway.servedBy("http", "/work/", 20)).containsExactlyInAnyOrder("a", "b");

        gateway.gateway().reload(ConfigLoader.parse("admin: { address: 127.0.0.1, port: 0 }\n" + yaml(a, b, c)));
        Await.until("c's first probe sent", LIMIT, () -> cProbes.get() > 0);
        Host hostC = gateway.host("checked", c.port());
        assertThat(hostC.pendingFirstCheck()).isTrue();
        assertThat(hostC.available()).isFalse();

        assertThat(gateway.servedBy("http", "/work/", 40)).containsExactlyInAnyOrder("a", "b");

        cMayAnswer.countDown();
        Await.until("c in rotation", LIMIT, hostC::available);
        assertThat(hostC.pendingFirstCheck()).isFalse();
        assertThat(gateway.servedBy("http", "/work/", 60)).containsExactlyInAnyOrder("a", "b", "c");
    }

    private static String yaml(HttpUpstream... upstreams) {
        StringBuilder endpoints = new StringBuilder();
        for (HttpUpstream upstream : upstreams) {
            endpoints.append("      - { address: 127.0.0.1, port: ").append(upstream.port()).append(" }\n");
        }
        return GatewayYaml.gateway(1, "name: http", """
                - { match: { prefix: / }, route: { cluster: checked } }
                """, """
                clusters:
                  - name: checked
                    health_check: %s
                    endpoints:
                %s""".formatted(CHECK, endpoints));
    }

    private HttpUpstream upstream(String name) throws IOException {
        HttpUpstream upstream = new HttpUpstream(name);
        resources.add(upstream);
        return upstream;
    }
}
