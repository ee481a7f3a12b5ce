package io.tollgate.admin;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tollgate.core.config.AdminConfig;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.router.host.Host;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class AdminServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final GatewayConfig config = ConfigLoader.defaults();
    private final ClusterManager clusters = ClusterManager.build(config.clusters());
    private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final GatewayMetrics metrics = new GatewayMetrics(prometheus);
    private final AtomicBoolean ready = new AtomicBoolean(true);
    private final AtomicReference<ServedConfig> served = new AtomicReference<>(new Served(config, 1));
    /** When set, every read of the served configuration first applies a reload, as if one raced with it. */
    private final AtomicBoolean reloadOnEveryRead = new AtomicBoolean();
    private final AtomicReference<ConfigException> rejection = new AtomicReference<>();
    private final RecordingServerControl control = new RecordingServerControl();
    private AdminServer server;

    @BeforeEach
    void start() throws InterruptedException {
        AdminContext context = new AdminContext() {
            @Override
            public ServedConfig served() {
                if (reloadOnEveryRead.get()) {
                    reload();
                }
                return served.get();
            }

            @Override
            public long reload() {
                if (rejection.get() != null) {
                    throw rejection.get();
                }
                return served.updateAndGet(before -> new Served(withEventLoops(config, (int) before.version() + 1),
                        before.version() + 1)).version();
            }

            @Override
            public ClusterManager clusters() {
                return clusters;
            }

            @Override
            public List<ListenerInfo> listeners() {
                return List.of(new ListenerInfo("http", "127.0.0.1", 18080, List.of("http1")));
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
                return ready.get();
            }
        };
        server = AdminServer.start(new AdminConfig("127.0.0.1", 0), context);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void bindsAFreePortWhenAskedForPortZero() {
        assertThat(server.port()).isPositive();
    }

    @Test
    void readyAnswersLiveWhileReadyAndServiceUnavailableOtherwise() throws Exception {
        HttpResponse<String> live = get("/ready");
        ready.set(false);
        HttpResponse<String> notReady = get("/ready");

        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.body()).isEqualTo("LIVE\n");
        assertThat(notReady.statusCode()).isEqualTo(503);
    }

    @Test
    void readyNamesTheStateWhenNotReady() throws Exception {
        ready.set(false);
        control.state = "DRAINING";

        HttpResponse<String> draining = get("/ready");

        assertThat(draining.statusCode()).isEqualTo(503);
        assertThat(draining.body()).isEqualTo("DRAINING\n");
    }

    @Test
    void serverInfoShowsVersionStateUptimeRestartEpochAndCommandLineLikeEnvoy() throws Exception {
        JsonNode info = json(get("/server_info"));

        assertThat(info.get("version").asText()).isEqualTo("1.2.3");
        assertThat(info.get("state").asText()).isEqualTo("LIVE");
        assertThat(info.get("uptime_current_epoch").asText()).isEqualTo("12.345s");
        assertThat(info.get("uptime_all_epochs").asText()).isEqualTo("67.890s");
        assertThat(info.get("restart_epoch").asLong()).isZero();
        JsonNode options = info.get("command_line_options");
        assertThat(options.get("config_path").asText()).isEqualTo("/etc/tollgate.yaml");
        assertThat(options.get("restart_epoch").asLong()).isZero();
        assertThat(options.get("drain_time").asText()).isEqualTo("30.000s");
        assertThat(options.get("args")).hasSize(3);
    }

    @Test
    void lifecycleEndpointsAnswerPostOnlyAndReachTheServer() throws Exception {
        HttpResponse<String> getQuit = get("/quitquitquit");

        assertThat(getQuit.statusCode()).isEqualTo(405);
        assertThat(control.calls).isEmpty();
        for (String path : new String[] {"/healthcheck/fail", "/healthcheck/ok", "/drain_listeners",
            "/drain_listeners?graceful", "/quitquitquit"}) {
            HttpResponse<String> answer = post(path);
            assertThat(answer.statusCode()).as(path).isEqualTo(200);
            assertThat(answer.body()).as(path).isEqualTo("OK\n");
        }
        assertThat(control.calls).containsExactly("fail", "ok", "drain", "drain graceful", "quit");
    }

    @Test
    void reloadAnswersTheAppliedVersionWhichConfigDumpThenShows() throws Exception {
        HttpResponse<String> reloaded = post("/config/reload");

        assertThat(reloaded.statusCode()).isEqualTo(200);
        assertThat(reloaded.body()).isEqualTo("applied version 2\n");
        assertThat(json(get("/config_dump")).get("version").asLong()).isEqualTo(2);
        assertThat(get("/config/version").body()).isEqualTo("2\n");
    }

    @Test
    void configDumpPairsTheVersionWithTheConfigurationOfThatVersion() throws Exception {
        reloadOnEveryRead.set(true);

        JsonNode dump = json(get("/config_dump"));

        assertThat(dump.get("version").asLong()).isGreaterThan(1);
        assertThat(dump.get("event_loops").asLong()).isEqualTo(dump.get("version").asLong());
    }

    @Test
    void rejectedReloadAnswersBadRequestWithTheFieldPathAndTheVersionStillServed() throws Exception {
        rejection.set(new ConfigException("clusters[0].connect_timeout: -1s (expected a positive duration)"));

        HttpResponse<String> reloaded = post("/config/reload");

        assertThat(reloaded.statusCode()).isEqualTo(400);
        assertThat(reloaded.body()).isEqualTo("rejected, still serving version 1: "
                + "clusters[0].connect_timeout: -1s (expected a positive duration)\n");
        assertThat(json(get("/config_dump")).get("version").asLong()).isEqualTo(1);
    }

    @Test
    void reloadAnswersPostOnly() throws Exception {
        HttpResponse<String> got = get("/config/reload");

        assertThat(got.statusCode()).isEqualTo(405);
        assertThat(served.get().version()).isEqualTo(1);
    }

    @Test
    void prometheusScrapeShowsTheGatewayMetricsAfterTraffic() throws Exception {
        ListenerMetrics listener = metrics.listener("http");
        listener.connectionOpened();
        listener.request(listener.route("demo"), 200, 2_000_000);
        listener.error("no_route");
        ClusterMetrics cluster = metrics.cluster("demo");
        cluster.requestCompleted(200, 3_000_000);

        HttpResponse<String> response = get("/stats/prometheus");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/plain; version=0.0.4"));
        assertThat(response.body()).contains(
                "tollgate_downstream_cx_active{listener=\"http\"} 1.0",
                "tollgate_downstream_cx_total{listener=\"http\"} 1.0",
                "tollgate_downstream_rq_total{listener=\"http\",status_class=\"2xx\"} 1.0",
                "tollgate_route_rq_total{listener=\"http\",route=\"demo\",status_class=\"2xx\"} 1.0",
                "tollgate_downstream_rq_error_total{listener=\"http\",reason=\"no_route\"} 1.0",
                "tollgate_upstream_rq_total{cluster=\"demo\",status_class=\"2xx\"} 1.0",
                "tollgate_upstream_rq_time_seconds_bucket{cluster=\"demo\",le=",
                "tollgate_upstream_rq_time_seconds_count{cluster=\"demo\"} 1",
                "tollgate_route_rq_time_seconds_count{listener=\"http\",route=\"demo\"} 1");
    }

    @Test
    void statsListEveryMeterWithItsTagsAndValues() throws Exception {
        ListenerMetrics listener = metrics.listener("http");
        listener.request(null, 404, 0);
        listener.request(null, 404, 0);

        JsonNode stats = json(get("/stats")).get("stats");

        JsonNode notFound = null;
        for (JsonNode stat : stats) {
            if (stat.get("name").asText().equals("tollgate.downstream.rq")
                    && stat.get("tags").get("status_class").asText().equals("4xx")) {
                notFound = stat;
            }
        }
        assertThat(notFound).isNotNull();
        assertThat(notFound.get("type").asText()).isEqualTo("counter");
        assertThat(notFound.get("tags").get("listener").asText()).isEqualTo("http");
        assertThat(notFound.get("values").get("count").asDouble()).isEqualTo(2.0);
    }

    @Test
    void configDumpShowsTheServedConfigurationLikeItsYaml() throws Exception {
        JsonNode dump = json(get("/config_dump"));

        assertThat(dump.at("/admin/port").asInt()).isEqualTo(9901);
        assertThat(dump.at("/listeners/0/name").asText()).isEqualTo("http");
        assertThat(dump.at("/listeners/0/access_log/path").asText()).isEqualTo("stdout");
        assertThat(dump.at("/listeners/0/route_config/virtual_hosts/0/routes/0/forward/timeout").asText())
                .isEqualTo("15s");
        assertThat(dump.at("/listeners/0/route_config/virtual_hosts/0/routes/0/match/prefix").asText()).isEqualTo("/");
        assertThat(dump.at("/listeners/0/route_config/virtual_hosts/0/routes/0/match").has("path")).isFalse();
        assertThat(dump.at("/clusters/0/connect_timeout").asText()).isEqualTo("1s");
        assertThat(dump.at("/demo_upstream/port").asInt()).isEqualTo(8081);
    }

    @Test
    void clustersShowEachHostWithItsHealthAndLoad() throws Exception {
        Host host = clusters.cluster("demo").hosts().get(0);
        host.healthy(false);
        host.requestStarted();

        JsonNode demo = json(get("/clusters")).at("/clusters/0");

        assertThat(demo.get("name").asText()).isEqualTo("demo");
        assertThat(demo.get("lb_policy").asText()).isEqualTo("round_robin");
        JsonNode h = demo.at("/hosts/0");
        assertThat(h.get("address").asText()).isEqualTo("127.0.0.1:8081");
        assertThat(h.get("weight").asInt()).isEqualTo(1);
        assertThat(h.at("/labels/role").asText()).isEqualTo("demo");
        assertThat(h.get("healthy").asBoolean()).isFalse();
        assertThat(h.get("active_requests").asInt()).isEqualTo(1);
    }

    @Test
    void listenersShowTheBoundPorts() throws Exception {
        JsonNode listener = json(get("/listeners")).at("/listeners/0");

        assertThat(listener.get("name").asText()).isEqualTo("http");
        assertThat(listener.get("address").asText()).isEqualTo("127.0.0.1");
        assertThat(listener.get("port").asInt()).isEqualTo(18080);
        assertThat(listener.at("/protocols/0").asText()).isEqualTo("http1");
    }

    @Test
    void loggingSetsTheLevelOfTheRootOrOfANamedLogger() throws Exception {
        ch.qos.logback.classic.Logger root = logback(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ch.qos.logback.classic.Logger named = logback("io.tollgate.admin.test");
        Level before = root.getLevel();
        try {
            HttpResponse<String> rootChange = post("/logging?level=debug");
            HttpResponse<String> namedChange = post("/logging?level=ERROR&logger=io.tollgate.admin.test");

            assertThat(rootChange.statusCode()).isEqualTo(200);
            assertThat(root.getLevel()).isEqualTo(Level.DEBUG);
            assertThat(namedChange.statusCode()).isEqualTo(200);
            assertThat(named.getLevel()).isEqualTo(Level.ERROR);
        } finally {
            root.setLevel(before);
            named.setLevel(null);
        }
    }

    @Test
    void loggingRejectsAnUnknownOrMissingLevel() throws Exception {
        Level before = logback(org.slf4j.Logger.ROOT_LOGGER_NAME).getLevel();

        HttpResponse<String> unknown = post("/logging?level=loud");
        HttpResponse<String> missing = post("/logging");

        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("loud", "expected one of");
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(logback(org.slf4j.Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(before);
    }

    @Test
    void answersAWrongMethodWith405AndTheAllowedOne() throws Exception {
        HttpResponse<String> getLogging = get("/logging?level=debug");
        HttpResponse<String> postStats = post("/stats");

        assertThat(getLogging.statusCode()).isEqualTo(405);
        assertThat(getLogging.headers().firstValue("allow")).hasValue("POST");
        assertThat(postStats.statusCode()).isEqualTo(405);
        assertThat(postStats.headers().firstValue("allow")).hasValue("GET");
    }

    @Test
    void answersAnUnknownPathWith404() throws Exception {
        assertThat(get("/nope").statusCode()).isEqualTo(404);
        assertThat(get("/stats/").statusCode()).isEqualTo(404);
    }

    @Test
    void theIndexListsEveryEndpoint() throws Exception {
        HttpResponse<String> index = get("/");

        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(index.body()).contains("/ready", "/stats", "/stats/prometheus", "/config_dump", "/clusters",
                "/listeners", "POST  /logging");
    }

    @Test
    void answersAMalformedRequestWith400AndCloses() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /ready HTTP/9.x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();

            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.US_ASCII);

            assertThat(response).startsWith("HTTP/1.1 400");
        }
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    private HttpResponse<String> post(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        return JSON.readTree(response.body());
    }

    private static ch.qos.logback.classic.Logger logback(String name) {
        return (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(name);
    }

    /** {@code config} with another number of event loops, to tell versions apart in a dump. */
    private static GatewayConfig withEventLoops(GatewayConfig config, int eventLoops) {
        return new GatewayConfig(config.admin(), eventLoops, config.listeners(), config.clusters(),
                config.demoUpstream());
    }

    /** A configuration with its version, as the gateway publishes them. */
    private record Served(GatewayConfig config, long version) implements ServedConfig {
    }
}
