package io.tollgate.server.testing;

import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.router.host.Host;
import io.tollgate.router.lb.Candidates;
import io.tollgate.server.Gateway;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A gateway started in the test JVM from YAML with {@code ${NAME}} placeholders filled in; its
 * first listener and admin API are bound to ephemeral ports.
 */
public final class TestGateway implements AutoCloseable {

    private final Gateway gateway;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private TestGateway(Gateway gateway) {
        this.gateway = gateway;
    }

    /**
     * Starts a gateway whose listener {@code http} sends every request to one upstream port,
     * on one event loop, with the given route timeout (e.g. {@code 15s}).
     */
    public static TestGateway proxyingTo(int upstreamPort, String routeTimeout) throws InterruptedException {
        return oneListener("http", "[http1]", upstreamPort, routeTimeout);
    }

    /** Like {@link #proxyingTo}, with a listener that detects HTTP/1.1 or h2c from the first bytes. */
    public static TestGateway detectingProxyTo(int upstreamPort, String routeTimeout) throws InterruptedException {
        return oneListener("http", "[http1, h2c]", upstreamPort, routeTimeout);
    }

    /** Like {@link #proxyingTo}, with an h2c-only listener named {@code h2}. */
    public static TestGateway h2cProxyingTo(int upstreamPort, String routeTimeout) throws InterruptedException {
        return h2cProxyingTo(upstreamPort, routeTimeout, "");
    }

    /**
     * Like {@link #h2cProxyingTo(int, String)}, the listener with more settings, one YAML line,
     * e.g. {@code http: { idle_timeout: 300ms }}.
     */
    public static TestGateway h2cProxyingTo(int upstreamPort, String routeTimeout, String listenerSettings)
            throws InterruptedException {
        return oneListener("h2", "[h2c]", upstreamPort, routeTimeout, listenerSettings);
    }

    private static TestGateway oneListener(String name, String protocols, int upstreamPort, String routeTimeout)
            throws InterruptedException {
        return oneListener(name, protocols, upstreamPort, routeTimeout, "");
    }

    private static TestGateway oneListener(String name, String protocols, int upstreamPort, String routeTimeout,
            String listenerSettings) throws InterruptedException {
        return start(GatewayYaml.gateway(1, """
                name: ${NAME}
                protocols: ${PROTOCOLS}
                """ + listenerSettings + "\n", """
                - { match: { prefix: / }, route: { cluster: upstream, timeout: ${TIMEOUT} } }
                """, """
                clusters:
                  - name: upstream
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                """), Map.of("NAME", name, "PROTOCOLS", protocols, "PORT", upstreamPort, "TIMEOUT", routeTimeout));
    }

    /** Starts a gateway; every {@code ${KEY}} in {@code yaml} is replaced by its value. */
    public static TestGateway start(String yaml, Map<String, ?> values) throws InterruptedException {
        String text = yaml;
        for (Map.Entry<String, ?> e : values.entrySet()) {
            text = text.replace("${" + e.getKey() + "}", String.valueOf(e.getValue()));
        }
        if (!text.contains("admin:")) {
            text = "admin: { address: 127.0.0.1, port: 0 }\n" + text;
        }
        return new TestGateway(Gateway.start(ConfigLoader.parse(text)));
    }

    public Gateway gateway() {
        return gateway;
    }

    /** The port of the named listener. */
    public int port(String listener) {
        return gateway.port(listener);
    }

    /** A URI on the named listener. */
    public URI uri(String listener, String path) {
        return URI.create("http://127.0.0.1:" + port(listener) + path);
    }

    /** The value of a counter (or the sum over matching counters) in the gateway's registry. */
    public double count(String name, String... tags) {
        return gateway.metrics().registry().find(name).tags(tags).counters().stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
    }

    /** The value of a gauge in the gateway's registry, 0 when there is none. */
    public double gauge(String name, String... tags) {
        io.micrometer.core.instrument.Gauge gauge = gateway.metrics().registry().find(name).tags(tags).gauge();
        return gauge == null ? 0 : gauge.value();
    }

    /** The host of a cluster listening on {@code port}; fails when there is none. */
    public Host host(String cluster, int port) {
        return gateway.snapshot().clusters().cluster(cluster).hosts().stream()
                .filter(h -> h.address().getPort() == port).findFirst()
                .orElseThrow(() -> new AssertionError("no host on port " + port + " in cluster " + cluster));
    }

    /**
     * The ids ({@code address:port}) of the hosts the event loops send requests of {@code cluster}
     * to: the available hosts of the cluster's published version. A health verdict or an ejection
     * sets the host's flag on the control thread, which republishes the hosts a moment later, so a
     * test waits for this, not for the flag alone, before it looks at where requests go.
     */
    public Set<String> inRotation(String cluster) {
        Candidates available = gateway.snapshot().clusters().cluster(cluster).hostSet().healthy();
        Set<String> ids = new HashSet<>();
        for (int rank = 0; available != null && rank < available.size(); rank++) {
            ids.add(available.host(rank).id());
        }
        return ids;
    }

    /**
     * Sends {@code count} GETs to {@code path} (a counter appended) on the named listener, fails
     * unless every one got a 200, and returns the names of the upstreams that served them (their
     * {@code X-Upstream} header, as {@link HttpUpstream} sets it).
     */
    public Set<String> servedBy(String listener, String path, int count) throws IOException, InterruptedException {
        Set<String> served = new HashSet<>();
        for (int i = 0; i < count; i++) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri(listener, path + i)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError("request " + i + " to " + path + ": " + response.statusCode() + " " + response.body());
            }
            served.add(response.headers().firstValue("x-upstream").orElse("?"));
        }
        return served;
    }

    @Override
    public void close() {
        gateway.close();
    }
}
