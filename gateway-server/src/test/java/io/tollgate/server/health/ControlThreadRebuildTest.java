package io.tollgate.server.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Health verdicts that keep flipping rebuild a cluster with a million-entry Maglev table on the
 * control thread, never on an event loop, while requests keep being served.
 */
class ControlThreadRebuildTest {

    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final int STABLE_HOSTS = 4;
    private static final int FLAPPING_HOSTS = 2;

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
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
    void flippingVerdictsRebuildOnTheControlThreadWhileRequestsAreServed() throws Exception {
        StringBuilder endpoints = new StringBuilder();
        for (int i = 0; i < STABLE_HOSTS + FLAPPING_HOSTS; i++) {
            HttpUpstream upstream = new HttpUpstream("u" + i);
            resources.add(upstream);
            AtomicInteger probes = new AtomicInteger();
            boolean flapping = i < FLAPPING_HOSTS;
            upstream.answer("/health", () -> flapping && probes.incrementAndGet() % 2 == 0 ? 503 : 200);
            endpoints.append("      - { address: 127.0.0.1, port: ").append(upstream.port()).append(" }\n");
        }
        gateway = TestGateway.start(GatewayYaml.gateway(2, "name: http", """
                - { match: { prefix: / }, route: { cluster: flapping, timeout: 5s } }
                """, """
                clusters:
                  - name: flapping
                    lb_policy: recording_maglev
                    health_check: { type: http, interval: 100ms, timeout: 2s, healthy_threshold: 1,
                                    unhealthy_threshold: 1, http: { path: /health } }
                    endpoints:
                %s""".formatted(endpoints)), Map.of());
        RebuildRecordingMaglevFactory.drainRebuildThreads();

        AtomicBoolean sending = new AtomicBoolean(true);
        AtomicInteger served = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Thread thread = new Thread(() -> {
                while (sending.get()) {
                    try {
                        HttpResponse<String> response = client.send(HttpRequest.newBuilder(gateway.uri("http", "/work"))
                                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
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
            }, "control-rebuild-client-" + i);
            thread.start();
            clients.add(thread);
        }
        List<String> rebuilds = new ArrayList<>();
        Await.until("verdicts flipped several times", LIMIT, () -> {
            rebuilds.addAll(RebuildRecordingMaglevFactory.drainRebuildThreads());
            return rebuilds.size() >= 8 && gateway.count("tollgate.upstream.health_check.failure",
                    "cluster", "flapping") >= 4;
        });
        sending.set(false);
        for (Thread thread : clients) {
            thread.join(LIMIT.toMillis());
        }

        assertThat(rebuilds).containsOnly("tollgate-control");
        assertThat(failures).isEmpty();
        assertThat(served.get()).isPositive();
    }
}
