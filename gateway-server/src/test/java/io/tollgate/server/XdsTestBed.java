package io.tollgate.server;

import static io.tollgate.server.EnvoyResources.assignment;
import static io.tollgate.server.EnvoyResources.edsCluster;
import static io.tollgate.server.EnvoyResources.rdsListener;
import static io.tollgate.server.EnvoyResources.routes;

import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.read.ConfigLoader;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What the xDS tests of HTTP traffic share: a real gateway fed by a real control plane
 * ({@link ControlPlane}), real upstreams that say who they are ({@code X-Upstream}) and count what
 * they served, and the JDK's HTTP client towards the gateway's listeners and admin port. Registered
 * as a JUnit extension ({@code @RegisterExtension}) on an instance field, it stops everything it
 * started after each test; closing it does the same.
 */
final class XdsTestBed implements AutoCloseable, AfterEachCallback {

    static final Duration LIMIT = Duration.ofSeconds(10);

    final StartedResources resources = new StartedResources();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final Map<String, AtomicInteger> served = new ConcurrentHashMap<>();
    ControlPlane controlPlane;
    Gateway gateway;

    void startControlPlane() throws IOException {
        controlPlane = resources.add(new ControlPlane());
    }

    /** Starts a gateway taking everything from the control plane over state-of-the-world ADS. */
    void startGateway() throws Exception {
        startGateway(controlPlane.bootstrap());
    }

    /** Starts a gateway configured by {@code yaml} and waits for its first xDS configuration. */
    void startGateway(String yaml) throws Exception {
        launchGateway(yaml);
        awaitReady();
    }

    /** Starts a gateway configured by {@code yaml} and returns at once, before xDS configured it. */
    void launchGateway(String yaml) throws Exception {
        gateway = resources.add(Gateway.start(ConfigLoader.parse(yaml)));
    }

    void awaitReady() throws InterruptedException {
        Await.until("the first xDS configuration applied (/ready)", LIMIT, () -> readiness() == 200);
    }

    /**
     * Whether {@code gateway}'s configuration holds {@code count} listeners and each of them is bound:
     * a listener from the control plane is in the published configuration before it binds.
     */
    static boolean listenersBound(Gateway gateway, int count) {
        List<ListenerConfig> configured = gateway.snapshot().config().listeners();
        return configured.size() == count && configured.stream().allMatch(listener -> bound(gateway, listener.name()));
    }

    private static boolean bound(Gateway gateway, String listener) {
        try {
            gateway.port(listener);
            return true;
        } catch (IllegalArgumentException notYet) {
            return false;
        }
    }

    /** The status {@code /ready} answers, or -1 when it cannot be asked. */
    int readiness() {
        try {
            return admin("/ready").statusCode();
        } catch (IOException | InterruptedException e) {
            return -1;
        }
    }

    /** Pushes cluster {@code app} on the endpoints {@code ports} and listener {@code web} routing everything to it. */
    void pushApp(String version, int... ports) {
        controlPlane.push(version, List.of(edsCluster("app")), List.of(assignment("app", ports)),
                List.of(rdsListener("web", 0, "web-routes")), List.of(routes("web-routes", Map.of("/", "app"))));
    }

    /** An upstream answering {@code /load...} with its name, counted; returns its port. */
    int upstream(String name) throws IOException {
        HttpUpstream upstream = resources.add(new HttpUpstream(name));
        AtomicInteger count = served.computeIfAbsent(name, n -> new AtomicInteger());
        upstream.handle("/load", exchange -> {
            count.incrementAndGet();
            exchange.getResponseHeaders().set("X-Upstream", name);
            HttpUpstream.respond(exchange, 200, name.getBytes(StandardCharsets.UTF_8));
        });
        return upstream.port();
    }

    /** How many requests upstream {@code name} served. */
    int served(String name) {
        return served.get(name).get();
    }

    /** A loop of requests to listener {@code web}, each on a path under {@code /load/}. */
    TrafficLoop traffic() {
        return new TrafficLoop("xds-test-client", i -> get("/load/" + i));
    }

    /** Prefixes and clusters, in the order given. */
    static Map<String, String> ordered(String... prefixAndCluster) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < prefixAndCluster.length; i += 2) {
            map.put(prefixAndCluster[i], prefixAndCluster[i + 1]);
        }
        return map;
    }

    /** The upstream that answered {@code path} on listener {@code web}, or what went wrong instead. */
    String upstreamAt(String path) {
        return upstreamAt("web", path);
    }

    String upstreamAt(String listener, String path) {
        try {
            return upstreamOf(get(listener, path));
        } catch (IOException | InterruptedException e) {
            return e.toString();
        }
    }

    /** The upstream that answered {@code response} ({@code X-Upstream}), or its status and body. */
    static String upstreamOf(HttpResponse<String> response) {
        return response.headers().firstValue("x-upstream").orElse(response.statusCode() + " " + response.body());
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return get("web", path);
    }

    HttpResponse<String> get(String listener, String path) throws IOException, InterruptedException {
        return get(listener, path, Map.of());
    }

    /** A GET of {@code path} on {@code listener} with the request headers {@code headers}. */
    HttpResponse<String> get(String listener, String path, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(listener, path));
        headers.forEach(request::header);
        return send(request);
    }

    /** Sends {@code request} with the client every request of the bed goes with, within 5 s. */
    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    URI uri(String listener, String path) {
        return URI.create("http://127.0.0.1:" + gateway.port(listener) + path);
    }

    HttpResponse<String> admin(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.adminPort() + path)));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    @Override
    public void close() {
        resources.close();
    }
}
