package io.tollgate.server.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.router.host.Host;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Outlier detection over real sockets: hosts whose real requests keep failing leave rotation for
 * their ejection time, never more of them than max_ejection_percent allows, and come back.
 */
class OutlierDetectionTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final String CONFIG = GatewayYaml.gateway(2, "name: http", """
            - { match: { prefix: / }, route: { cluster: flaky } }
            """, """
            clusters:
              - name: flaky
                outlier_detection: ${OUTLIER}
                endpoints: ${ENDPOINTS}
            """);

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
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
    void ejectsAHostAnswering5xxAndBringsItBackAfterTheEjectionTime() throws Exception {
        HttpUpstream a = upstream("a");
        HttpUpstream b = upstream("b");
        HttpUpstream c = upstream("c");
        AtomicBoolean broken = new AtomicBoolean(true);
        b.answer("/work/", () -> broken.get() ? 500 : 200);
        start("{ consecutive_5xx: 3, interval: 50ms, base_ejection_time: 2s, max_ejection_percent: 50 }",
                a.port(), b.port(), c.port());
        Host hostB = gateway.host("flaky", b.port());

        // had two failures ejected b, no third would have come
        sendUntilFailed(3);
        // the third failure hands the ejection to the control thread, which then republishes the
        // hosts the event loops read (as Envoy's main thread does): it needs no further request
        Await.until("b ejected", LIMIT, hostB::ejected);
        long ejectedAt = System.nanoTime();
        Await.until("b out of rotation", LIMIT, () -> !gateway.inRotation("flaky").contains(hostB.id()));
        broken.set(false);

        assertThat(gateway.servedBy("http", "/work/", 20)).containsExactlyInAnyOrder("a", "c");
        assertThat(gateway.count("tollgate.upstream.outlier.ejections", "cluster", "flaky")).isEqualTo(1);
        Await.until("the ejection counted in the gauge", LIMIT, () -> ejectedGauge() == 1);

        // the host's flag flips before the detector's listener lowers the gauge, on the ticking thread
        Await.until("b back from ejection, counted back and in rotation", LIMIT,
                () -> !hostB.ejected() && ejectedGauge() == 0 && gateway.inRotation("flaky").contains(hostB.id()));

        assertThat(Duration.ofNanos(System.nanoTime() - ejectedAt)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
        assertThat(gateway.servedBy("http", "/work/", 20)).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void neverEjectsMoreThanMaxEjectionPercentOfTheHosts() throws Exception {
        List<Integer> ports = new ArrayList<>();
        for (String name : List.of("a", "b", "c", "d")) {
            HttpUpstream upstream = upstream(name);
            if (!name.equals("a")) {
                upstream.answer("/work/", () -> 500);
            }
            ports.add(upstream.port());
        }
        start("{ consecutive_5xx: 1, interval: 50ms, base_ejection_time: 1m, max_ejection_percent: 50 }",
                ports.toArray(Integer[]::new));

        for (int i = 0; i < 40; i++) {
            get("/work/" + i);
        }
        // ejections are decided on the control thread after the failures that asked for them
        Await.until("two hosts ejected and another ejection refused", LIMIT,
                () -> ejectedGauge() == 2 && gateway.count("tollgate.upstream.outlier.ejections_overflow", "cluster", "flaky") > 0);

        assertThat(gateway.gateway().snapshot().clusters().cluster("flaky").hosts()).filteredOn(Host::ejected).hasSize(2);
        assertThat(gateway.host("flaky", ports.get(0)).ejected()).isFalse();
        assertThat(ejectedGauge()).isEqualTo(2);
        assertThat(gateway.count("tollgate.upstream.outlier.ejections_overflow", "cluster", "flaky")).isPositive();
    }

    @Test
    void ejectsAHostThatRefusesConnectionsAndTrafficContinuesWithoutFailures() throws Exception {
        HttpUpstream a = upstream("a");
        HttpUpstream b = upstream("b");
        int dead;
        try (ServerSocket probe = new ServerSocket(0)) {
            dead = probe.getLocalPort();
        }
        start("{ consecutive_5xx: 0, consecutive_connect_failure: 2, interval: 50ms, base_ejection_time: 1m }",
                a.port(), b.port(), dead);
        Host deadHost = gateway.host("flaky", dead);

        long failures = sendUntil(deadHost::ejected);

        assertThat(failures).as("requests whose connect failed went to another host").isZero();
        assertThat(gateway.servedBy("http", "/work/", 30)).containsExactlyInAnyOrder("a", "b");
    }

    /** Sends requests until {@code failures} of them were not answered 200, at most 100 in all. */
    private void sendUntilFailed(int failures) throws Exception {
        int failed = 0;
        for (int i = 0; i < 100 && failed < failures; i++) {
            if (get("/work/" + i) != 200) {
                failed++;
            }
        }
        assertThat(failed).as("requests not answered 200 within 100").isEqualTo(failures);
    }

    /** Sends requests until {@code done} holds; returns how many were not answered 200. */
    private long sendUntil(java.util.function.BooleanSupplier done) throws Exception {
        long failures = 0;
        for (int i = 0; i < 100 && !done.getAsBoolean(); i++) {
            if (get("/work/" + i) != 200) {
                failures++;
            }
        }
        assertThat(done.getAsBoolean()).as("condition reached within 100 requests").isTrue();
        return failures;
    }

    private int get(String path) throws Exception {
        URI uri = gateway.uri("http", path);
        return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private double ejectedGauge() {
        return gateway.gateway().metrics().registry().get("tollgate.upstream.outlier.ejected").tag("cluster", "flaky")
                .gauge().value();
    }

    private void start(String outlier, Integer... ports) throws InterruptedException {
        StringBuilder endpoints = new StringBuilder("[");
        for (int port : ports) {
            endpoints.append(endpoints.length() > 1 ? ", " : "").append("{ address: 127.0.0.1, port: ").append(port).append(" }");
        }
        gateway = TestGateway.start(CONFIG, Map.of("OUTLIER", outlier, "ENDPOINTS", endpoints.append("]")));
    }

    private HttpUpstream upstream(String name) throws java.io.IOException {
        HttpUpstream upstream = new HttpUpstream(name);
        upstreams.add(upstream);
        return upstream;
    }
}
