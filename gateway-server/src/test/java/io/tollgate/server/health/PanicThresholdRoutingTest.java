package io.tollgate.server.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The panic threshold over real sockets: with too few healthy hosts a cluster routes to all of
 * them; with the threshold off, the survivors take everything.
 */
class PanicThresholdRoutingTest {

    private static final String CONFIG = GatewayYaml.http("""
            - { match: { prefix: /panicky/ }, route: { cluster: panicky } }
            - { match: { prefix: /strict/ }, route: { cluster: strict } }
            """, """
            clusters:
              - name: panicky
                health_check: ${CHECK}
                endpoints: ${HOSTS}
              - name: strict
                panic_threshold_percent: 0
                health_check: ${CHECK}
                endpoints: ${HOSTS}
            """);

    private final List<HttpUpstream> upstreams = new ArrayList<>();
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        upstreams.forEach(HttpUpstream::close);
    }

    @Test
    void routesToEveryHostWhenFewerThanTheThresholdAreHealthy() throws Exception {
        AtomicBoolean failing = new AtomicBoolean();
        StringJoiner hosts = new StringJoiner(", ", "[", "]");
        for (String name : List.of("a", "b", "c", "d")) {
            HttpUpstream upstream = new HttpUpstream(name);
            upstreams.add(upstream);
            upstream.answer("/health", () -> name.equals("a") || !failing.get() ? 200 : 503);
            hosts.add("{ address: 127.0.0.1, port: " + upstream.port() + " }");
        }
        gateway = TestGateway.start(CONFIG, Map.of("HOSTS", hosts,
                "CHECK", "{ type: http, interval: 50ms, timeout: 1s, unhealthy_threshold: 1, http: { path: /health } }"));
        assertThat(gateway.servedBy("http", "/strict/", 20)).containsExactlyInAnyOrder("a", "b", "c", "d");

        failing.set(true);
        Await.until("b, c and d unhealthy and out of rotation in both clusters", Duration.ofSeconds(10),
                () -> List.of("panicky", "strict").stream().allMatch(cluster -> gateway.inRotation(cluster).size() == 1
                        && gateway.gateway().snapshot().clusters().cluster(cluster).hosts().stream()
                                .filter(h -> h.healthy()).count() == 1));

        assertThat(gateway.servedBy("http", "/panicky/", 20)).containsExactlyInAnyOrder("a", "b", "c", "d");
        assertThat(gateway.servedBy("http", "/strict/", 20)).containsExactly("a");
    }
}
