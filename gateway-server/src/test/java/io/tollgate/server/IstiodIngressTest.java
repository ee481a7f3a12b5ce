package io.tollgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway fed by a real istiod: Istio's {@code pilot-discovery}, run without Kubernetes on a
 * directory of configuration files (a Gateway on a free port bound to 127.0.0.1, a VirtualService
 * splitting {@code /} 70/30 between two ServiceEntry hosts and sending {@code /b} to a third), and
 * the gateway connected to it as an ingress gateway node, with istiod's default mesh configuration
 * (paths normalized). Checks that the routing works end to end and that istiod's
 * {@code /debug/syncz} shows every type acknowledged for the node.
 *
 * <p>Needs the {@code pilot-discovery} binary (istiod 1.29.6, built from Istio's source by
 * {@code bin/build-istiod.sh}), found through the environment variable {@code PILOT_DISCOVERY} (a
 * {@code -D} on Maven's command line does not reach Surefire's forked JVM), the system property
 * {@code tollgate.pilotDiscovery}, or on the {@code PATH}; skipped, saying so, without it.
 */
class IstiodIngressTest {

    private static final Duration LIMIT = Duration.ofSeconds(90);
    private static final String NODE_ID = "router~127.0.0.1~tollgate-1.istio-system~istio-system.svc.cluster.local";
    /** The node as istiod names it in its debug endpoints: POD.NAMESPACE of the node id. */
    private static final String PROXY = "tollgate-1.istio-system";

    private static final Logger LOG = LoggerFactory.getLogger(IstiodIngressTest.class);

    @TempDir
    Path dir;

    private final Map<String, AtomicInteger> served = new ConcurrentHashMap<>();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process istiod;
    private Path log;

    /** Says where istiod's log is when the test fails: it stays in target/istiod after the run. */
    @RegisterExtension
    final TestWatcher istiodLogOnFailure = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            LOG.error("{} failed; istiod's log: {}", context.getDisplayName(), log);
        }
    };
    private Gateway gateway;
    private final List<HttpUpstream> upstreams = new java.util.ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        if (istiod != null) {
            istiod.destroy();
            if (!istiod.waitFor(15, TimeUnit.SECONDS)) {
                istiod.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
        upstreams.forEach(HttpUpstream::close);
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES) // istiod starts in seconds, up to a minute on a loaded machine
    void servesTheVirtualServiceIstiodSendsAndIstiodSeesEveryTypeAcknowledged() throws Exception {
        String binary = pilotDiscovery();
        assumeTrue(binary != null, "pilot-discovery not found (set the environment variable PILOT_DISCOVERY=PATH, or put it"
                + " on the PATH; bin/build-istiod.sh builds it from Istio's source); skipping");
        int a = upstream("a");
        int b = upstream("b");
        int c = upstream("c");
        int listenerPort = FreePort.pick();
        Path config = Files.createDirectories(dir.resolve("config"));
        Files.writeString(config.resolve("gateway.yaml"), gatewayResources(listenerPort));
        Files.writeString(config.resolve("services.yaml"), serviceEntry("a.example.com", a) + "---\n"
                + serviceEntry("b.example.com", b) + "---\n" + serviceEntry("c.example.com", c));
        Path mesh = dir.resolve("mesh.yaml");
        Files.writeString(mesh, """
                enableTracing: false
                """);
        int xds = FreePort.pick();
        int http = FreePort.pick();
        log = istiodLog();
        istiod = new ProcessBuilder(binary, "discovery", "--configDir=" + config, "--registries=",
                "--meshConfig=" + mesh, "--networksConfig=" + dir.resolve("none.yaml"),
                "--grpcAddr=127.0.0.1:" + xds, "--httpAddr=127.0.0.1:" + http,
                "--httpsAddr=127.0.0.1:" + FreePort.pick(), "--secureGRPCAddr=127.0.0.1:" + FreePort.pick(),
                "--monitoringAddr=127.0.0.1:" + FreePort.pick(), "--ctrlz_port=0", "--domain=cluster.local",
                "--clusterID=Kubernetes", "--namespace=istio-system")
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile())
                .start();
        // istiod opens its plaintext xDS port last, once its caches are synced (seconds after its HTTP
        // port; /ready also waits for the sidecar injector, which needs Kubernetes)
        Await.until("istiod's xDS port (log: " + log + ")", LIMIT, () -> accepts(xds));

        gateway = Gateway.start(ConfigLoader.parse("""
                admin: { address: 127.0.0.1, port: 0 }
                node:
                  id: %s
                  cluster: istio-ingressgateway.istio-system
                  metadata:
                    LABELS: { istio: ingressgateway }
                    NAMESPACE: istio-system
                    CLUSTER_ID: Kubernetes
                dynamic_resources:
                  ads_config: { address: 127.0.0.1, port: %d, initial_backoff: 100ms, max_backoff: 1s }
                """.formatted(NODE_ID, xds)));
        String base = "http://127.0.0.1:" + listenerPort;
        Await.until("the gateway serving /b from istiod's configuration (istiod log: " + log
                + ")", LIMIT, () -> "c".equals(upstreamAt(base + "/b/item")));

        try (RawHttp raw = new RawHttp(listenerPort)) {
            assertThat(raw.send("GET /split/%2e%2e/b/item HTTP/1.1\r\nHost: gw\r\n\r\n").read().header("x-upstream"))
                    .as("the path normalized as istiod's default mesh configuration asks").isEqualTo("c");
        }
        int requests = 200;
        for (int i = 0; i < requests; i++) {
            assertThat(get(base + "/split/" + i).statusCode()).as("GET /split/%d", i).isEqualTo(200);
        }
        int first = served.get("a").get();
        assertThat(first + served.get("b").get()).isEqualTo(requests);
        assertThat(first).as("requests to a.example.com (weight 70 of 100)").isBetween(110, 170);

        // what istiod built for the node (the resources the requests above went through) and what the gateway serves
        String listener = "127.0.0.1_" + listenerPort;
        List<String> clusters = List.of("outbound|80||a.example.com", "outbound|80||b.example.com",
                "outbound|80||c.example.com", "BlackHoleCluster");
        String sent = get("http://127.0.0.1:" + http + "/debug/config_dump?proxyID=" + PROXY).body();
        assertThat(sent).as("istiod's config_dump for the node").contains("\"name\":\"" + listener + "\"",
                "\"routeConfigName\":\"http." + listenerPort + ".127.0.0.1\"");
        clusters.forEach(cluster -> assertThat(sent).contains("\"name\":\"" + cluster + "\""));
        String dump = get("http://127.0.0.1:" + gateway.adminPort() + "/config_dump").body();
        assertThat(dump).as("the gateway's /config_dump").contains("\"" + listener + "\"");
        clusters.forEach(cluster -> assertThat(dump).contains("\"" + cluster + "\""));

        // /debug/syncz: each type's last response acknowledged (acked = sent), no resource with an error (a NACK)
        JsonNode node = null;
        for (JsonNode proxy : new ObjectMapper().readTree(get("http://127.0.0.1:" + http + "/debug/syncz").body())) {
            node = PROXY.equals(proxy.path("proxy").asText()) ? proxy : node;
        }
        assertThat(node).as("the node in istiod's /debug/syncz").isNotNull();
        for (String type : List.of("cluster", "listener", "route", "endpoint")) {
            assertThat(node.path(type + "_acked").asText()).as("istiod's /debug/syncz: %s acknowledged", type)
                    .isNotEmpty().isEqualTo(node.path(type + "_sent").asText());
        }
        assertThat(node.path("resources").findValuesAsText("lastError")).as("NACKs in istiod's /debug/syncz").isEmpty();
    }

    private static String gatewayResources(int port) {
        return """
                apiVersion: networking.istio.io/v1
                kind: Gateway
                metadata: { name: ingress, namespace: istio-system }
                spec:
                  selector: { istio: ingressgateway }
                  servers:
                  - port: { number: %d, name: http, protocol: HTTP }
                    bind: 127.0.0.1
                    hosts: ["*"]
                ---
                apiVersion: networking.istio.io/v1
                kind: VirtualService
                metadata: { name: split, namespace: istio-system }
                spec:
                  hosts: ["*"]
                  gateways: [istio-system/ingress]
                  http:
                  - match: [ { uri: { prefix: /b } } ]
                    route: [ { destination: { host: c.example.com, port: { number: 80 } } } ]
                  - route:
                    - { destination: { host: a.example.com, port: { number: 80 } }, weight: 70 }
                    - { destination: { host: b.example.com, port: { number: 80 } }, weight: 30 }
                """.formatted(port);
    }

    /**
     * A ServiceEntry in the application's namespace {@code shop}. Not in the gateway's: istiod takes
     * a proxy's labels from the first service instance at the proxy's IP in the proxy's namespace,
     * and these endpoints share the gateway's 127.0.0.1, so in istio-system their (empty) labels
     * would replace the node's {@code LABELS} and no Gateway would select it (no listener).
     */
    private static String serviceEntry(String host, int port) {
        return """
                apiVersion: networking.istio.io/v1
                kind: ServiceEntry
                metadata: { name: %s, namespace: shop }
                spec:
                  hosts: [%s]
                  location: MESH_EXTERNAL
                  resolution: STATIC
                  ports: [ { number: 80, name: http, protocol: HTTP } ]
                  endpoints: [ { address: 127.0.0.1, ports: { http: %d } } ]
                """.formatted(host.replace('.', '-'), host, port);
    }

    private int upstream(String name) throws IOException {
        AtomicInteger count = served.computeIfAbsent(name, n -> new AtomicInteger());
        HttpUpstream upstream = new HttpUpstream(name);
        upstreams.add(upstream);
        upstream.handle("/", exchange -> {
            count.incrementAndGet();
            exchange.getResponseHeaders().set("X-Upstream", name);
            HttpUpstream.respond(exchange, 200, name.getBytes(StandardCharsets.UTF_8));
        });
        return upstream.port();
    }

    private String upstreamAt(String url) {
        try {
            return get(url).headers().firstValue("x-upstream").orElse("");
        } catch (IOException | InterruptedException e) {
            return "";
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** istiod's log, kept in the module's target directory so a failure can be read after the run. */
    private static Path istiodLog() throws IOException {
        Path logs = Files.createDirectories(Path.of("target", "istiod").toAbsolutePath());
        return logs.resolve("istiod-" + System.currentTimeMillis() + ".log");
    }

    /** The pilot-discovery binary: the system property, the environment variable, the PATH; null when none. */
    private static String pilotDiscovery() {
        String configured = System.getProperty("tollgate.pilotDiscovery", System.getenv("PILOT_DISCOVERY"));
        if (configured != null && !configured.isBlank()) {
            return new File(configured).canExecute() ? configured : null;
        }
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File candidate = new File(directory, "pilot-discovery");
            if (candidate.canExecute()) {
                return candidate.getPath();
            }
        }
        return null;
    }
}
