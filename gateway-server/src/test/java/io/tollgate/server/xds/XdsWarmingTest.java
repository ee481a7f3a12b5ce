package io.tollgate.server.xds;

import static io.tollgate.server.xds.EnvoyResources.assignment;
import static io.tollgate.server.xds.EnvoyResources.edsCluster;
import static io.tollgate.server.xds.EnvoyResources.rdsListener;
import static io.tollgate.server.xds.EnvoyResources.routes;
import static io.tollgate.server.xds.EnvoyResources.staticCluster;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthCheck;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.tollgate.core.config.ConfigLoader;
import io.tollgate.server.Gateway;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TrafficLoop;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
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

    private final StartedResources resources = new StartedResources();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private ControlPlane controlPlane;
    private Gateway gateway;

    @AfterEach
    void stop() {
        resources.close();
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"GRPC", "DELTA_GRPC"})
    void endpointsThatNeverArriveStopHoldingReadinessAfterTheInitialFetchTimeout(String apiType) throws Exception {
        controlPlane = resources.add(new ControlPlane());
        Cluster waiting = edsCluster("app").toBuilder().setEdsClusterConfig(edsCluster("app").getEdsClusterConfig()
                .toBuilder().setEdsConfig(edsCluster("app").getEdsClusterConfig().getEdsConfig().toBuilder()
                        .setInitialFetchTimeout(com.google.protobuf.Duration.newBuilder().setNanos(300_000_000))))
                .build();
        controlPlane.push("1", List.of(waiting), List.of(), List.of(rdsListener("web", 0, "web-routes")),
                List.of(routes("web-routes", Map.of("/", "app"))));
        startGateway(apiType);

        Await.until("ready once the endpoints' initial fetch timed out", LIMIT, () -> status(gateway.adminPort(), "/ready") == 200);
        assertThat(status(gateway.port("web"), "/x")).as("a cluster without endpoints").isEqualTo(503);
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
        controlPlane = resources.add(new ControlPlane());
        Listener web = rdsListener("web", 0, "web-routes");
        controlPlane.push("1", List.of(staticCluster("a", a)), List.of(), List.of(web),
                List.of(routes("web-routes", Map.of("/", "a"))));
        startGateway("GRPC");
        Await.until("ready", LIMIT, () -> status(gateway.adminPort(), "/ready") == 200);

        Cluster withChecks = staticCluster("b", checked.port()).toBuilder().addHealthChecks(HealthCheck.newBuilder()
                .setTimeout(com.google.protobuf.Duration.newBuilder().setSeconds(25))
                .setInterval(com.google.protobuf.Duration.newBuilder().setSeconds(1))
                .setHealthyThreshold(UInt32Value.of(1)).setUnhealthyThreshold(UInt32Value.of(1))
                .setHttpHealthCheck(HealthCheck.HttpHealthCheck.newBuilder().setPath("/health"))).build();
        try (TrafficLoop traffic = new TrafficLoop("xds-warming", i -> get(gateway.port("web"), "/load/" + i))) {
            controlPlane.push("2", List.of(staticCluster("a", a), withChecks), List.of(), List.of(web),
                    List.of(routes("web-routes", Map.of("/", "b"))));
            assertThat(firstCheckHeld.await(20, TimeUnit.SECONDS)).as("the first health check reached b").isTrue();
            for (int i = 0; i < 5; i++) {
                assertThat(upstreamAt("/x")).as("before b's first verdict").isEqualTo("a");
            }
            releaseFirstCheck.countDown();
            Await.until("traffic on b after its first verdict", LIMIT, () -> "b".equals(upstreamAt("/x")));
            assertThat(traffic.stop()).isEmpty();
        }
    }

    private HttpUpstream upstream(String name) throws IOException {
        HttpUpstream upstream = resources.add(new HttpUpstream(name));
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

    private String upstreamAt(String path) {
        try {
            HttpResponse<String> response = get(gateway.port("web"), path);
            return response.headers().firstValue("x-upstream").orElse(response.statusCode() + " " + response.body());
        } catch (IOException | InterruptedException e) {
            return e.toString();
        }
    }

    private int status(int port, String path) {
        try {
            return get(port, path).statusCode();
        } catch (IOException | InterruptedException e) {
            return -1;
        }
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private void startGateway(String apiType) throws Exception {
        gateway = resources.add(Gateway.start(ConfigLoader.parse(controlPlane.bootstrap(apiType))));
    }
}
