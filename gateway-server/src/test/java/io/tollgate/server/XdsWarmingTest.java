package io.tollgate.server;

import static io.tollgate.server.EnvoyResources.edsCluster;
import static io.tollgate.server.EnvoyResources.rdsListener;
import static io.tollgate.server.EnvoyResources.routes;
import static io.tollgate.server.EnvoyResources.staticCluster;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthCheck;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TrafficLoop;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Warming beyond the arrival of resources, with a real control plane, real upstreams and the
 * JDK's client: a cluster whose endpoints never come stops holding readiness after its
 * {@code initial_fetch_timeout}, and a new health-checked cluster takes a route only once its
 * hosts had their first verdict, with no failed request meanwhile.
 */
class XdsWarmingTest {

    private static final Duration LIMIT = Duration.ofSeconds(30);

    @RegisterExtension
    final XdsTestBed bed = new XdsTestBed();

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"GRPC", "DELTA_GRPC"})
    void endpointsThatNeverArriveStopHoldingReadinessAfterTheInitialFetchTimeout(String apiType) throws Exception {
        bed.startControlPlane();
        Cluster waiting = edsCluster("app").toBuilder().setEdsClusterConfig(edsCluster("app").getEdsClusterConfig()
                .toBuilder().setEdsConfig(edsCluster("app").getEdsClusterConfig().getEdsConfig().toBuilder()
                        .setInitialFetchTimeout(com.google.protobuf.Duration.newBuilder().setNanos(300_000_000))))
                .build();
        bed.controlPlane.push("1", List.of(waiting), List.of(), List.of(rdsListener("web", 0, "web-routes")),
                List.of(routes("web-routes", Map.of("/", "app"))));
        bed.launchGateway(bed.controlPlane.bootstrap(apiType));

        Await.until("ready once the endpoints' initial fetch timed out", LIMIT, () -> bed.readiness() == 200);
        assertThat(bed.get("/x").statusCode()).as("a cluster without endpoints").isEqualTo(503);
    }

    @Test
    void aNewHealthCheckedClusterTakesItsRouteOnlyAfterItsFirstVerdict() throws Exception {
        CountDownLatch firstCheckHeld = new CountDownLatch(1);
        CountDownLatch releaseFirstCheck = new CountDownLatch(1);
        int a = upstream("a").port();
        HttpUpstream checked = upstream("b");
        checked.handle("/health", exchange -> {
            if (firstCheckHeld.getCount() > 0) {
                firstCheckHeld.countDown();
                try {
                    releaseFirstCheck.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            HttpUpstream.respond(exchange, 200, new byte[0]);
        });
        bed.startControlPlane();
        Listener web = rdsListener("web", 0, "web-routes");
        bed.controlPlane.push("1", List.of(staticCluster("a", a)), List.of(), List.of(web),
                List.of(routes("web-routes", Map.of("/", "a"))));
        bed.launchGateway(bed.controlPlane.bootstrap("GRPC"));
        Await.until("ready", LIMIT, () -> bed.readiness() == 200);

        Cluster withChecks = staticCluster("b", checked.port()).toBuilder().addHealthChecks(HealthCheck.newBuilder()
                .setTimeout(com.google.protobuf.Duration.newBuilder().setSeconds(25))
                .setInterval(com.google.protobuf.Duration.newBuilder().setSeconds(1))
                .setHealthyThreshold(UInt32Value.of(1)).setUnhealthyThreshold(UInt32Value.of(1))
                .setHttpHealthCheck(HealthCheck.HttpHealthCheck.newBuilder().setPath("/health"))).build();
        try (TrafficLoop traffic = new TrafficLoop("xds-warming", i -> bed.get("/load/" + i))) {
            bed.controlPlane.push("2", List.of(staticCluster("a", a), withChecks), List.of(), List.of(web),
                    List.of(routes("web-routes", Map.of("/", "b"))));
            assertThat(firstCheckHeld.await(20, TimeUnit.SECONDS)).as("the first health check reached b").isTrue();
            for (int i = 0; i < 5; i++) {
                assertThat(bed.upstreamAt("/x")).as("before b's first verdict").isEqualTo("a");
            }
            releaseFirstCheck.countDown();
            Await.until("traffic on b after its first verdict", LIMIT, () -> "b".equals(bed.upstreamAt("/x")));
            assertThat(traffic.stop()).isEmpty();
        }
    }

    private HttpUpstream upstream(String name) throws IOException {
        HttpUpstream upstream = bed.resources.add(new HttpUpstream(name));
        upstream.handle("/load", exchange -> {
            exchange.getResponseHeaders().set("X-Upstream", name);
            HttpUpstream.respond(exchange, 200, name.getBytes(StandardCharsets.UTF_8));
        });
        upstream.handle("/x", exchange -> {
            exchange.getResponseHeaders().set("X-Upstream", name);
            HttpUpstream.respond(exchange, 200, name.getBytes(StandardCharsets.UTF_8));
        });
        return upstream;
    }
}
