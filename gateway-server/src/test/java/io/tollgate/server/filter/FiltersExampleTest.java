package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/examples/filters.yaml, as a user runs it (its ports moved to free ones): every built-in
 * filter does what the example's comments promise, with the demo upstream as the service.
 */
class FiltersExampleTest {

    private static final StartedResources started = new StartedResources();
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        String yaml = Files.readString(Path.of("..", "docs", "examples", "filters.yaml"))
                .replace("port: 8080", "port: 0")
                .replace("port: 9000", "port: 0")
                .replace("port: 9901", "port: 0")
                .replace("8081", String.valueOf(FreePort.pick()));
        gateway = started.add(TestGateway.start(yaml, Map.of()));
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void faultRouteIsAbortedWith503() throws Exception {
        HttpResponse<String> response = get("http", "/fault/x");
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("x-tollgate-error")).hasValue("fault_injected");
    }

    @Test
    void deniedRouteIsRefusedWith403() throws Exception {
        HttpResponse<String> response = get("http", "/denied/x");
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.headers().firstValue("x-tollgate-error")).hasValue("rbac_access_denied");
    }

    @Test
    void limitedRouteAllowsFiveASecondThenAnswers429() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            burst.add(http.sendAsync(HttpRequest.newBuilder(gateway.uri("http", "/limited/" + i)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        long passed = 0;
        long limited = 0;
        for (CompletableFuture<HttpResponse<String>> response : burst) {
            int status = response.get().statusCode();
            passed += status == 200 ? 1 : 0;
            limited += status == 429 ? 1 : 0;
        }
        assertThat(passed).as("five a second: the burst, and at most one refill during it").isBetween(5L, 10L);
        assertThat(passed + limited).isEqualTo(20);
    }

    @Test
    void mirroredRouteIsAnsweredByTheDemoWhileACopyCountsInTheShadowCluster() throws Exception {
        HttpResponse<String> response = get("http", "/mirrored/x");
        assertThat(response.statusCode()).isEqualTo(200);
        Await.until("the shadow's request counted", Duration.ofSeconds(10),
                () -> gateway.count("tollgate.filter.mirror.sent", "cluster", "demo-shadow") > 0);
        HttpResponse<String> stats = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + gateway.gateway().adminPort() + "/stats")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(stats.body()).contains("demo-shadow");
    }

    @Test
    void otherPathsAreProxiedAndTheTcpListenerForwardsToTheDemo() throws Exception {
        HttpResponse<String> proxied = get("http", "/anything");
        assertThat(proxied.statusCode()).isEqualTo(200);
        assertThat(proxied.body()).isEqualTo("Hello from the Tollgate demo upstream: GET /anything\n");
        HttpResponse<String> throughTcp = get("tcp", "/anything");
        assertThat(throughTcp.statusCode()).isEqualTo(200);
        assertThat(throughTcp.body()).isEqualTo(proxied.body());
    }

    private static HttpResponse<String> get(String listener, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(gateway.uri(listener, path)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
