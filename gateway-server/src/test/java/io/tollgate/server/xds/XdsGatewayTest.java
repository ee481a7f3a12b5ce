package io.tollgate.server.xds;

import static io.tollgate.server.xds.EnvoyResources.assignment;
import static io.tollgate.server.xds.EnvoyResources.edsCluster;
import static io.tollgate.server.xds.EnvoyResources.rdsListener;
import static io.tollgate.server.xds.EnvoyResources.routes;
import static io.tollgate.server.xds.EnvoyResources.staticCluster;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.tollgate.core.config.ConfigLoader;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.server.Gateway;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestPki;
import io.tollgate.server.testing.TrafficLoop;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real gateway fed by a real xDS control plane (java-control-plane in the test's process), with
 * real upstreams and the JDK's HTTP client: listeners, routes, clusters and endpoints arrive over
 * ADS and serve traffic; endpoint pushes move traffic with no failed request; a bad resource is
 * refused with a NACK naming it while the last good configuration serves; the gateway keeps
 * serving while the control plane is away and picks up again when it returns.
 */
class XdsGatewayTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);

    private final StartedResources resources = new StartedResources();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final Map<String, AtomicInteger> served = new ConcurrentHashMap<>();
    private ControlPlane controlPlane;
    private Gateway gateway;

    @AfterEach
    void stop() {
        resources.close();
    }

    @Test
    void aListenerAndRoutesFromXdsServeTrafficAndEndpointPushesMoveItWithNoFailedRequest() throws Exception {
        int a = upstream("a");
        int b = upstream("b");
        startControlPlane();
        pushApp("1", a);
        startGateway();

        assertThat(get("/x").headers().firstValue("x-upstream")).hasValue("a");
        try (TrafficLoop traffic = traffic()) {
            pushApp("2", a, b);
            Await.until("b served traffic", LIMIT, () -> served("b") >= 20);

            pushApp("3", b);
            Await.until("endpoints of version 3 acknowledged", LIMIT,
                    () -> acks("type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment").stream()
                            .anyMatch(r -> r.getVersionInfo().equals("3")));
            int onB = served("b");
            Await.until("b served more traffic", LIMIT, () -> served("b") >= onB + 20);
            // a request already on its way to a when the push landed may still finish there
            int onA = served("a");
            int onBAfter = served("b");
            Await.until("b served yet more traffic", LIMIT, () -> served("b") >= onBAfter + 20);
            assertThat(served("a")).isEqualTo(onA);
            assertThat(traffic.stop()).isEmpty();
        }
        String dump = admin("/config_dump").body().replaceAll("\\s", "");
        assertThat(dump).contains("\"xds_resources\"", "\"type\":\"ClusterLoadAssignment\",\"name\":\"app\",\"version\":\"3\"",
                "\"type\":\"Listener\",\"name\":\"web\"");
        assertThat(acks("type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment"))
                .extracting(DiscoveryRequest::getVersionInfo).contains("1", "2", "3");
    }

    @Test
    void aListenerWaitsForTheEndpointsOfANewClusterBeforeItsRoutesSwitch() throws Exception {
        int a = upstream("a");
        int b = upstream("b");
        startControlPlane();
        pushApp("1", a);
        startGateway();

        // The control plane sends the new cluster and the route to it, but not yet its endpoints.
        controlPlane.push("2", List.of(edsCluster("app"), edsCluster("next")), List.of(assignment("app", a)),
                List.of(rdsListener("web", 0, "web-routes")), List.of(routes("web-routes", Map.of("/", "next"))));
        Await.until("routes of version 2 acknowledged", LIMIT,
                () -> acks("type.googleapis.com/envoy.config.route.v3.RouteConfiguration").stream()
                        .anyMatch(r -> r.getVersionInfo().equals("2")));
        assertThat(get("/x").headers().firstValue("x-upstream")).hasValue("a");

        controlPlane.push("3", List.of(edsCluster("app"), edsCluster("next")),
                List.of(assignment("app", a), assignment("next", b)), List.of(rdsListener("web", 0, "web-routes")),
                List.of(routes("web-routes", Map.of("/", "next"))));
        Await.until("traffic on the new cluster", LIMIT, () -> "b".equals(upstreamAt("/x")));
    }

    @Test
    void aBadResourceIsNackedNamingItsFieldAndTheLastGoodConfigurationKeepsServing() throws Exception {
        int a = upstream("a");
        startControlPlane();
        pushApp("1", a);
        startGateway();

        Cluster bad = edsCluster("app").toBuilder().setLbPolicy(Cluster.LbPolicy.CLUSTER_PROVIDED).build();
        controlPlane.push("2", List.of(bad), List.of(assignment("app", a)), List.of(rdsListener("web", 0, "web-routes")),
                List.of(routes("web-routes", Map.of("/", "app"))));
        Await.until("a NACK of the clusters", LIMIT, () -> !nacks().isEmpty());

        DiscoveryRequest nack = nacks().get(0);
        assertThat(nack.getTypeUrl()).isEqualTo("type.googleapis.com/envoy.config.cluster.v3.Cluster");
        assertThat(nack.getVersionInfo()).isEqualTo("1");
        assertThat(nack.getResponseNonce()).isNotEmpty();
        assertThat(nack.getErrorDetail().getMessage()).startsWith("Cluster 'app'.lb_policy: CLUSTER_PROVIDED not supported");
        assertThat(get("/x").headers().firstValue("x-upstream")).hasValue("a");
        assertThat(admin("/stats/prometheus").body())
                .containsPattern("tollgate_xds_response_total\\{result=\"nack\",type=\"Cluster\"} [1-9]");
        assertThat(admin("/config_dump").body()).containsPattern("\"last_nack\"\\s*:\\s*\"Cluster 'app'.lb_policy: CLUSTER_PROVIDED");

        controlPlane.push("3", List.of(edsCluster("app"), staticCluster("other", upstream("other"))),
                List.of(assignment("app", a)), List.of(rdsListener("web", 0, "web-routes")),
                List.of(routes("web-routes", ordered("/other", "other", "/", "app"))));
        Await.until("the next good version serves", LIMIT, () -> "other".equals(upstreamAt("/other")));
    }

    @Test
    void aChangedListenerIsReplacedOnItsSocketUnderLoadAndItsOldConnectionsDrain() throws Exception {
        int a = upstream("a");
        startControlPlane();
        pushApp("1", a);
        startGateway();
        int port = gateway.port("web");

        try (TrafficLoop traffic = traffic()) {
            Await.until("a served traffic", LIMIT, () -> served("a") >= 20);
            for (int i = 0; i < 7; i++) {
                HttpConnectionManager.CodecType codec = i % 2 == 0 ? HttpConnectionManager.CodecType.HTTP1
                        : HttpConnectionManager.CodecType.AUTO;
                controlPlane.push(Integer.toString(i + 2), List.of(edsCluster("app")), List.of(assignment("app", a)),
                        List.of(rdsListener("web", 0, "web-routes", codec)), List.of(routes("web-routes", Map.of("/", "app"))));
                String version = Integer.toString(i + 2);
                Await.until("listeners of version " + version + " acknowledged", LIMIT,
                        () -> acks("type.googleapis.com/envoy.config.listener.v3.Listener").stream()
                                .anyMatch(r -> r.getVersionInfo().equals(version)));
                int before = served("a");
                Await.until("traffic after version " + version, LIMIT, () -> served("a") >= before + 20);
            }
            assertThat(traffic.stop()).isEmpty();
        }

        assertThat(nacks()).isEmpty();
        assertThat(gateway.port("web")).isEqualTo(port);
        assertThat(gateway.snapshot().config().listeners()).singleElement()
                .satisfies(l -> assertThat(l.protocols()).containsExactly("http1"));
        assertThat(gateway.metrics().registry().find(MetricNames.SERVER_DRAIN_STARTED).tag("trigger", "listener_changed")
                .counter().count()).isEqualTo(7);
    }

    @Test
    void theGatewayKeepsServingWhileTheControlPlaneIsAwayAndReconnectsWhenItReturns() throws Exception {
        int a = upstream("a");
        int other = upstream("other");
        startControlPlane();
        pushApp("1", a);
        startGateway();

        controlPlane.stop();
        try (TrafficLoop traffic = traffic()) {
            Await.until("a served traffic without a control plane", LIMIT, () -> served("a") >= 50);
            assertThat(traffic.stop()).isEmpty();
        }

        controlPlane.push("2", List.of(edsCluster("app"), staticCluster("other", other)), List.of(assignment("app", a)),
                List.of(rdsListener("web", 0, "web-routes")), List.of(routes("web-routes", ordered("/other", "other", "/", "app"))));
        controlPlane.start();
        Await.until("the pushed routes serve after the reconnection", LIMIT, () -> "other".equals(upstreamAt("/other")));
        assertThat(get("/x").headers().firstValue("x-upstream")).hasValue("a");
    }

    @Test
    void staticListenersRouteToClustersFromXdsAndAReloadOfTheFileKeepsTheDynamicResources(@TempDir Path dir)
            throws Exception {
        int a = upstream("a");
        int b = upstream("b");
        startControlPlane();
        pushApp("1", a);
        Path file = dir.resolve("gateway.yaml");
        String bootstrap = """
                admin: { address: 127.0.0.1, port: 0 }
                node: { id: tollgate-test, cluster: ingress }
                dynamic_resources:
                  ads_config: { address: 127.0.0.1, port: %d, initial_backoff: 50ms, max_backoff: 200ms }
                listeners:
                  - name: edge
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                %s
                            - { match: { prefix: / }, route: { cluster: app } }
                clusters:
                  - name: from-file
                    endpoints: [ { address: 127.0.0.1, port: %d } ]
                """;
        Files.writeString(file, bootstrap.formatted(controlPlane.port(), "", b));
        gateway = resources.add(Gateway.start(ConfigLoader.load(file), file));
        awaitReady();

        assertThat(upstreamAt("edge", "/x")).isEqualTo("a");
        Files.writeString(file, bootstrap.formatted(controlPlane.port(),
                "            - { match: { prefix: /file }, route: { cluster: from-file } }", b));
        gateway.reload();

        assertThat(upstreamAt("edge", "/file")).isEqualTo("b");
        assertThat(upstreamAt("edge", "/x")).isEqualTo("a");
        assertThat(upstreamAt("web", "/x")).isEqualTo("a");
    }

    @Test
    void theStreamToTheControlPlaneMayBeTlsCheckingItsCertificate() throws Exception {
        int a = upstream("a");
        controlPlane = resources.add(new ControlPlane(
                GrpcSslContexts.forServer(TestPki.cert("localhost").toFile(), TestPki.key("localhost").toFile()).build()));
        pushApp("1", a);
        gateway = resources.add(Gateway.start(ConfigLoader.parse("""
                admin: { address: 127.0.0.1, port: 0 }
                node: { id: tollgate-test, cluster: ingress }
                dynamic_resources:
                  ads_config:
                    address: 127.0.0.1
                    port: %d
                    tls: { ca_file: %s, sni: localhost }
                """.formatted(controlPlane.port(), TestPki.cert("ca")))));
        awaitReady();

        assertThat(upstreamAt("/x")).isEqualTo("a");
    }

    @Test
    void endpointLabelsFromEnvoyLbMetadataServeTheSubsetARouteAsksFor() throws Exception {
        int v1 = upstream("a");
        int v2 = upstream("b");
        startControlPlane();
        Cluster subsets = edsCluster("app").toBuilder().setLbSubsetConfig(Cluster.LbSubsetConfig.newBuilder()
                .addSubsetSelectors(Cluster.LbSubsetConfig.LbSubsetSelector.newBuilder().addKeys("version"))).build();
        RouteConfiguration toV2 = routes("web-routes", Map.of("/", "app")).toBuilder()
                .setVirtualHosts(0, routes("web-routes", Map.of("/", "app")).getVirtualHosts(0).toBuilder()
                        .setRoutes(0, routes("web-routes", Map.of("/", "app")).getVirtualHosts(0).getRoutes(0).toBuilder()
                                .setRoute(RouteAction.newBuilder().setCluster("app").setMetadataMatch(lb("v2")))))
                .build();
        ClusterLoadAssignment labelled = ClusterLoadAssignment.newBuilder().setClusterName("app")
                .addEndpoints(LocalityLbEndpoints.newBuilder()
                        .addLbEndpoints(LbEndpoint.newBuilder().setMetadata(lb("v1"))
                                .setEndpoint(Endpoint.newBuilder().setAddress(EnvoyResources.address(v1))))
                        .addLbEndpoints(LbEndpoint.newBuilder().setMetadata(lb("v2"))
                                .setEndpoint(Endpoint.newBuilder().setAddress(EnvoyResources.address(v2)))))
                .build();
        controlPlane.push("1", List.of(subsets), List.of(labelled), List.of(rdsListener("web", 0, "web-routes")),
                List.of(toV2));
        startGateway();

        for (int i = 0; i < 20; i++) {
            assertThat(upstreamAt("/x")).isEqualTo("b");
        }
    }

    /** Subset labels as Envoy carries them: {@code version} in the {@code envoy.lb} filter metadata. */
    private static Metadata lb(String version) {
        return Metadata.newBuilder().putFilterMetadata("envoy.lb", Struct.newBuilder()
                .putFields("version", Value.newBuilder().setStringValue(version).build()).build()).build();
    }

    private TrafficLoop traffic() {
        return new TrafficLoop("xds-test-client", i -> get("/load/" + i));
    }

    /** Pushes cluster {@code app} on the endpoints {@code ports} and listener {@code web} routing everything to it. */
    private void pushApp(String version, int... ports) {
        controlPlane.push(version, List.of(edsCluster("app")), List.of(assignment("app", ports)),
                List.of(rdsListener("web", 0, "web-routes")), List.of(routes("web-routes", Map.of("/", "app"))));
    }

    private void startControlPlane() throws IOException {
        controlPlane = new ControlPlane();
        resources.add(controlPlane);
    }

    private void startGateway() throws Exception {
        gateway = resources.add(Gateway.start(ConfigLoader.parse(controlPlane.bootstrap())));
        awaitReady();
    }

    private void awaitReady() throws InterruptedException {
        Await.until("the first xDS configuration applied (/ready)", LIMIT, () -> {
            try {
                return admin("/ready").statusCode() == 200;
            } catch (IOException | InterruptedException e) {
                return false;
            }
        });
    }

    private int upstream(String name) throws IOException {
        HttpUpstream upstream = resources.add(new HttpUpstream(name));
        AtomicInteger count = served.computeIfAbsent(name, n -> new AtomicInteger());
        upstream.handle("/load", exchange -> {
            count.incrementAndGet();
            exchange.getResponseHeaders().set("X-Upstream", name);
            HttpUpstream.respond(exchange, 200, name.getBytes(StandardCharsets.UTF_8));
        });
        return upstream.port();
    }

    private int served(String name) {
        return served.get(name).get();
    }

    private static Map<String, String> ordered(String... prefixAndCluster) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < prefixAndCluster.length; i += 2) {
            map.put(prefixAndCluster[i], prefixAndCluster[i + 1]);
        }
        return map;
    }

    private List<DiscoveryRequest> acks(String typeUrl) {
        return controlPlane.requests().stream()
                .filter(r -> r.getTypeUrl().equals(typeUrl) && !r.getResponseNonce().isEmpty() && !r.hasErrorDetail())
                .toList();
    }

    private List<DiscoveryRequest> nacks() {
        return controlPlane.requests().stream().filter(DiscoveryRequest::hasErrorDetail).toList();
    }

    /** The upstream that answered {@code path}, or what went wrong instead. */
    private String upstreamAt(String path) {
        return upstreamAt("web", path);
    }

    private String upstreamAt(String listener, String path) {
        try {
            HttpResponse<String> response = get(listener, path);
            return response.headers().firstValue("x-upstream").orElse(response.statusCode() + " " + response.body());
        } catch (IOException | InterruptedException e) {
            return e.toString();
        }
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return get("web", path);
    }

    private HttpResponse<String> get(String listener, String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port(listener) + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> admin(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.adminPort() + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
