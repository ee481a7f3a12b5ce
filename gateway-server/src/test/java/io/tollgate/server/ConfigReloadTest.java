package io.tollgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.router.host.Host;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TrafficLoop;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configuration reloads of a running gateway with real upstreams and a client sending requests
 * all along: routes and endpoints change with no failed request, hosts that stay keep their
 * state and their upstream connection, bad files change nothing.
 */
class ConfigReloadTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final String CLUSTERS = """
            clusters:
              - name: app
                health_check: { type: http, interval: 30ms, timeout: 1s, healthy_threshold: 1, unhealthy_threshold: 1,
                                http: { path: /health, expected_statuses: [200-299] } }
                endpoints:
            ${ENDPOINTS}
              - name: other
                endpoints: [ { address: 127.0.0.1, port: ${OTHER} } ]
            admin: { address: 127.0.0.1, port: 0 }
            """;
    private static final String APP_ROUTE = "- { match: { prefix: /svc }, route: { cluster: app } }";
    private static final String OTHER_ROUTE = "- { match: { prefix: /other }, route: { cluster: other } }";

    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Map<String, Set<Integer>> connectionsByUpstream = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> servedByUpstream = new ConcurrentHashMap<>();
    private Path file;
    private Gateway gateway;

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
    void endpointsAndRoutesChangeUnderTrafficWithNoFailedRequestAndStayingHostsKeepStateAndConnection()
            throws Exception {
        HttpUpstream a = upstream("a", true);
        HttpUpstream b = upstream("b", false);
        HttpUpstream c = upstream("c", true);
        HttpUpstream other = upstream("other", true);
        start(config(List.of(APP_ROUTE), List.of(a, b), other));
        Host hostA = host(a);
        Host hostB = host(b);
        Await.until("b unhealthy", LIMIT, () -> !hostB.healthy());

        try (TrafficLoop traffic = new TrafficLoop("reload-test-client", i -> get("/svc/" + i))) {
            Await.until("a served traffic", LIMIT, () -> served("a") >= 20);
            Set<Integer> connectionsToA = Set.copyOf(connectionsByUpstream.get("a"));

            write(config(List.of(OTHER_ROUTE, APP_ROUTE), List.of(a, b, c), other));
            assertThat(gateway.reload()).isEqualTo(2);

            Await.until("c served traffic", LIMIT, () -> served("c") >= 20);
            int servedByA = served("a");
            Await.until("a still served traffic", LIMIT, () -> served("a") >= servedByA + 20);
            assertThat(host(a)).isSameAs(hostA);
            assertThat(host(b)).isSameAs(hostB);
            assertThat(hostB.healthy()).isFalse();
            assertThat(served("b")).isZero();
            assertThat(connectionsByUpstream.get("a")).isEqualTo(connectionsToA);
            assertThat(get("/other/1").headers().firstValue("x-upstream")).hasValue("other");

            write(config(List.of(APP_ROUTE), List.of(c), other));
            assertThat(gateway.reload()).isEqualTo(3);
            int servedByC = served("c");
            Await.until("c served more traffic", LIMIT, () -> served("c") >= servedByC + 50);
            // a request already on its way to a when the reload landed may still finish there
            int servedByAAfter = served("a");
            int servedByCAfter = served("c");
            Await.until("c served yet more traffic", LIMIT, () -> served("c") >= servedByCAfter + 50);
            assertThat(served("a")).isEqualTo(servedByAAfter);
            assertThat(get("/other/1").body()).contains("no_route");

            assertThat(traffic.stop()).isEmpty();
        }
        assertThat(count("tollgate.config.reload", "result", "success")).isEqualTo(2);
        Await.until("the retired pool of a closed its connection", LIMIT,
                () -> gauge("tollgate.upstream.cx.active", "cluster", "app") == 1);
    }

    @Test
    void anInvalidFileIsRejectedWithTheFieldPathAndTheRunningConfigurationKeepsServing() throws Exception {
        HttpUpstream a = upstream("a", true);
        HttpUpstream other = upstream("other", true);
        start(config(List.of(APP_ROUTE), List.of(a), other));

        try (TrafficLoop traffic = new TrafficLoop("reload-test-client", i -> get("/svc/" + i))) {
            Files.writeString(file, Files.readString(file).replace("prefix: /svc", "prefix: svc"));
            assertThatThrownBy(gateway::reload).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("listeners[0].route_config.virtual_hosts[0].routes[0].match.prefix");
            int before = served("a");
            Await.until("a still served traffic", LIMIT, () -> served("a") >= before + 20);
            assertThat(traffic.stop()).isEmpty();
        }
        assertThat(gateway.snapshot().version()).isEqualTo(1);
        assertThat(count("tollgate.config.reload", "result", "failure")).isEqualTo(1);
    }

    @Test
    void adminReloadAnswersTheAppliedVersionOrTheRejectionAndConfigDumpShowsTheVersion() throws Exception {
        HttpUpstream a = upstream("a", true);
        HttpUpstream c = upstream("c", true);
        HttpUpstream other = upstream("other", true);
        start(config(List.of(APP_ROUTE), List.of(a), other));

        write(config(List.of(APP_ROUTE), List.of(c), other));
        HttpResponse<String> applied = admin("POST", "/config/reload");
        Files.writeString(file, Files.readString(file).replace("name: http\n    port: 0", "name: http\n    port: -1"));
        HttpResponse<String> rejected = admin("POST", "/config/reload");

        assertThat(applied.statusCode()).isEqualTo(200);
        assertThat(applied.body()).isEqualTo("applied version 2\n");
        assertThat(rejected.statusCode()).isEqualTo(400);
        assertThat(rejected.body()).startsWith("rejected, still serving version 2: listeners[0].port");
        assertThat(admin("GET", "/config_dump").body()).contains("\"version\" : 2");
        assertThat(get("/svc/1").headers().firstValue("x-upstream")).hasValue("c");
    }

    @Test
    void adminReloadOfAFileWithSeveralMistakesAnswers400ListingEachInFileOrder() throws Exception {
        HttpUpstream a = upstream("a", true);
        HttpUpstream other = upstream("other", true);
        start(config(List.of(APP_ROUTE), List.of(a), other));

        Files.writeString(file, Files.readString(file).replace("name: http\n    port: 0", "name: http\n    port: -1")
                .replace("prefix: /svc", "prefix: svc").replace("name: other", "name: app"));
        HttpResponse<String> rejected = admin("POST", "/config/reload");

        assertThat(rejected.statusCode()).isEqualTo(400);
        assertThat(rejected.body().lines()).containsExactly(
                "rejected, still serving version 1: listeners[0].port: -1 (expected: 0..65535)",
                "listeners[0].route_config.virtual_hosts[0].routes[0].match.prefix: must start with '/' (was 'svc')",
                "clusters[1]: name 'app' is already used by clusters[0] (expected each name once)");
        assertThat(get("/svc/1").headers().firstValue("x-upstream")).hasValue("a");
        assertThat(count("tollgate.config.reload", "result", "failure")).isEqualTo(1);
    }

    @Test
    void listenersUnderNewNamesAreBoundAndRemovedOnesDrained() throws Exception {
        HttpUpstream a = upstream("a", true);
        HttpUpstream other = upstream("other", true);
        start(config(List.of(APP_ROUTE), List.of(a), other));
        String extra = """
                  - name: extra
                    port: 0
                    route_config:
                      virtual_hosts:
                        - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: other } } ] }
                """;
        String base = Files.readString(file);

        Files.writeString(file, base.replace("clusters:", extra + "clusters:"));
        gateway.reload();
        int extraPort = gateway.port("extra");
        HttpResponse<String> viaExtra = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + extraPort + "/x")).build(), HttpResponse.BodyHandlers.ofString());
        Files.writeString(file, base);
        gateway.reload();

        assertThat(viaExtra.headers().firstValue("x-upstream")).hasValue("other");
        Await.until("the idle connection open before the removal drained", Duration.ofSeconds(5),
                () -> gateway.metrics().registry().find(MetricNames.DOWNSTREAM_CX_DRAIN_CLOSE)
                        .tag(MetricNames.TAG_LISTENER, "extra").counters().stream().mapToDouble(c -> c.count()).sum() == 1);
        assertThatThrownBy(() -> new Socket("127.0.0.1", extraPort).close()).isInstanceOf(ConnectException.class);
        assertThat(gateway.snapshot().version()).isEqualTo(3);
    }

    @Test
    void aChangedListenerTakesOverItsSocketWithNoRefusedConnectionWhileItsOldConnectionsDrain() throws Exception {
        HttpUpstream a = upstream("a", true);
        start(config(List.of(APP_ROUTE), List.of(a), a));
        int port = gateway.port("http");
        String base = Files.readString(file);
        String limited = base.replace("name: http\n    port: 0\n", "name: http\n    port: 0\n    http: { max_request_body_bytes: 10 }\n");
        Socket idle = new Socket("127.0.0.1", port);
        resources.add(idle);
        idle.getOutputStream().write("GET /svc/idle HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(new String(idle.getInputStream().readNBytes(12), StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");

        List<String> failures = new ArrayList<>();
        try (TrafficLoop first = new TrafficLoop("reload-test-client-1", i -> get("/svc/" + i));
                TrafficLoop second = new TrafficLoop("reload-test-client-2", i -> get("/svc/" + i))) {
            for (int i = 0; i < 20; i++) {
                int before = served("a");
                write(i % 2 == 0 ? limited : base);
                gateway.reload();
                Await.until("requests served after change " + i, LIMIT, () -> served("a") >= before + 10);
            }
            failures.addAll(first.stop());
            failures.addAll(second.stop());
        }

        assertThat(failures).isEmpty();
        assertThat(gateway.port("http")).isEqualTo(port);
        assertThat(post("/svc/big", "0123456789abcdef").statusCode()).isEqualTo(200);
        Await.until("the idle connection of the first listener drained", LIMIT,
                () -> count(MetricNames.DOWNSTREAM_CX_DRAIN_CLOSE, MetricNames.TAG_LISTENER, "http") >= 1);
        idle.setSoTimeout((int) LIMIT.toMillis());
        assertThat(new String(idle.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                .as("the rest of the first response, then the end of the stream").doesNotContain("HTTP/1.1");
        write(limited);
        gateway.reload();
        assertThat(post("/svc/big", "0123456789abcdef").statusCode()).isEqualTo(413);
    }

    @Test
    void aListenerMovedToAnotherPortServesThereAndItsOldPortCloses() throws Exception {
        HttpUpstream a = upstream("a", true);
        start(config(List.of(APP_ROUTE), List.of(a), a));
        int oldPort = gateway.port("http");
        int newPort = FreePort.pick();

        write(Files.readString(file).replace("name: http\n    port: 0\n", "name: http\n    port: " + newPort + "\n"));
        gateway.reload();

        assertThat(gateway.port("http")).isEqualTo(newPort);
        assertThat(get("/svc/moved").headers().firstValue("x-upstream")).hasValue("a");
        Await.until("the old port closed", LIMIT, () -> refuses(oldPort));
    }

    @Test
    void aListenerChangeThatCannotBeAppliedLeavesTheOldListenerAcceptingOnItsSocket() throws Exception {
        HttpUpstream a = upstream("a", true);
        start(config(List.of(APP_ROUTE), List.of(a), a));
        int port = gateway.port("http");
        String unwritableLog = "    access_log: { path: " + dir.resolve("no-such-dir").resolve("access.log") + " }\n";

        write(Files.readString(file).replace("name: http\n    port: 0\n", "name: http\n    port: 0\n" + unwritableLog));

        assertThatThrownBy(gateway::reload).isInstanceOf(ConfigException.class).hasMessageContaining("listeners.http");
        assertThat(gateway.snapshot().version()).isEqualTo(1);
        assertThat(gateway.port("http")).isEqualTo(port);
        assertThat(get("/svc/still").headers().firstValue("x-upstream")).hasValue("a");
    }

    @Test
    void aListenersStreamFiltersChangeOnReload() throws Exception {
        HttpUpstream a = upstream("a", true);
        start(config(List.of(APP_ROUTE), List.of(a), a));
        String base = Files.readString(file);
        assertThat(get("/svc/1").statusCode()).isEqualTo(200);

        Files.writeString(file, base.replace("name: http\n    port: 0\n",
                "name: http\n    port: 0\n    filters: [{ name: fault, abort: { http_status: 418 } }]\n"));
        gateway.reload();
        int withFilter = get("/svc/1").statusCode();
        Files.writeString(file, base);
        gateway.reload();

        assertThat(withFilter).isEqualTo(418);
        assertThat(get("/svc/1").statusCode()).isEqualTo(200);
    }

    /** A client thread sending GETs one after another until stopped, remembering every failure. */
    private HttpUpstream upstream(String name, boolean healthy) throws IOException {
        HttpUpstream upstream = new HttpUpstream(name);
        resources.add(upstream);
        upstream.answer("/health", () -> healthy ? 200 : 503);
        Set<Integer> ports = connectionsByUpstream.computeIfAbsent(name, n -> ConcurrentHashMap.newKeySet());
        AtomicInteger served = servedByUpstream.computeIfAbsent(name, n -> new AtomicInteger());
        for (String path : new String[] {"/svc", "/other"}) {
            upstream.handle(path, exchange -> {
                ports.add(exchange.getRemoteAddress().getPort());
                served.incrementAndGet();
                exchange.getResponseHeaders().set("X-Upstream", name);
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
        }
        return upstream;
    }

    private String config(List<String> routes, List<HttpUpstream> endpoints, HttpUpstream other) {
        StringBuilder hosts = new StringBuilder();
        for (HttpUpstream endpoint : endpoints) {
            hosts.append("          - { address: 127.0.0.1, port: ").append(endpoint.port()).append(" }\n");
        }
        return GatewayYaml.gateway(1, "name: http\nport: 0", String.join("\n", routes), CLUSTERS)
                .replace("${ENDPOINTS}\n", hosts.toString())
                .replace("${OTHER}", Integer.toString(other.port()));
    }

    private void start(String yaml) throws Exception {
        file = dir.resolve("gateway.yaml");
        write(yaml);
        gateway = Gateway.start(ConfigLoader.load(file), file);
    }

    private void write(String yaml) throws IOException {
        Files.writeString(file, yaml);
    }

    private Host host(HttpUpstream upstream) {
        return gateway.snapshot().clusters().cluster("app").hosts().stream()
                .filter(h -> h.address().getPort() == upstream.port()).findFirst().orElseThrow();
    }

    private int served(String upstream) {
        return servedByUpstream.get(upstream).get();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port("http") + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static boolean refuses(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return false;
        } catch (IOException refused) {
            return true;
        }
    }

    /** A POST on a new connection: one the drain of an older listener version may be closing is not retried. */
    private HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port("http") + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> admin(String method, String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.adminPort() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private double count(String name, String... tags) {
        return gateway.metrics().registry().find(name).tags(tags).counters().stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
    }

    private double gauge(String name, String... tags) {
        return gateway.metrics().registry().find(name).tags(tags).gauges().stream()
                .mapToDouble(io.micrometer.core.instrument.Gauge::value).sum();
    }
}
