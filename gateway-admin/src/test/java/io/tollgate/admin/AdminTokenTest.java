package io.tollgate.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tollgate.core.config.AdminConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.router.cluster.ClusterManager;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An admin API bound to every interface with a token: the POST endpoints require
 * {@code Authorization: Bearer <token>}, while readiness, stats and the Prometheus scrape stay open.
 */
class AdminTokenTest {

    private static final String TOKEN = "s3cret-admin-token-0123456789";

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicLong reloads = new AtomicLong();
    private final RecordingServerControl control = new RecordingServerControl();
    private AdminServer server;

    @BeforeEach
    void start() throws InterruptedException {
        GatewayConfig config = ConfigLoader.defaults();
        ClusterManager clusters = ClusterManager.build(config.clusters());
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        AdminContext context = new AdminContext() {
            @Override
            public ServedConfig served() {
                return new ServedConfig() {
                    @Override
                    public GatewayConfig config() {
                        return config;
                    }

                    @Override
                    public long version() {
                        return 1 + reloads.get();
                    }
                };
            }

            @Override
            public long reload() {
                return 1 + reloads.incrementAndGet();
            }

            @Override
            public ClusterManager clusters() {
                return clusters;
            }

            @Override
            public List<ListenerInfo> listeners() {
                return List.of();
            }

            @Override
            public PrometheusMeterRegistry prometheus() {
                return prometheus;
            }

            @Override
            public ServerControl server() {
                return control;
            }

            @Override
            public boolean ready() {
                return true;
            }
        };
        server = AdminServer.start(new AdminConfig("0.0.0.0", 0, Optional.of(TOKEN)), context);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void mutatingEndpointsRefuseRequestsWithoutTheRightToken() throws Exception {
        HttpResponse<String> none = send(post("/config/reload"));
        HttpResponse<String> wrong = send(post("/config/reload").header("Authorization", "Bearer not-the-token"));
        HttpResponse<String> basic = send(post("/logging?level=info").header("Authorization", "Basic " + TOKEN));

        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("www-authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        assertThat(none.body()).contains("Authorization: Bearer");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(basic.statusCode()).isEqualTo(401);
        assertThat(reloads).hasValue(0);
    }

    @Test
    void lifecycleEndpointsNeedTheTokenAndServerInfoDoesNot() throws Exception {
        for (String path : List.of("/quitquitquit", "/drain_listeners", "/healthcheck/fail", "/healthcheck/ok")) {
            assertThat(send(post(path)).statusCode()).as(path).isEqualTo(401);
        }
        HttpResponse<String> quit = send(post("/quitquitquit").header("Authorization", "Bearer " + TOKEN));

        assertThat(quit.statusCode()).isEqualTo(200);
        assertThat(control.calls).containsExactly("quit");
        assertThat(send(HttpRequest.newBuilder(uri("/server_info")).GET()).statusCode()).isEqualTo(200);
    }

    @Test
    void mutatingEndpointsServeRequestsWithTheToken() throws Exception {
        HttpResponse<String> reloaded = send(post("/config/reload").header("Authorization", "Bearer " + TOKEN));

        assertThat(reloaded.statusCode()).isEqualTo(200);
        assertThat(reloaded.body()).isEqualTo("applied version 2\n");
        assertThat(reloads).hasValue(1);
    }

    @Test
    void readOnlyEndpointsStayOpen() throws Exception {
        for (String path : List.of("/ready", "/stats", "/stats/prometheus", "/config/version", "/clusters")) {
            assertThat(send(HttpRequest.newBuilder(uri(path)).GET()).statusCode()).as(path).isEqualTo(200);
        }
    }

    private HttpRequest.Builder post(String path) {
        return HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
