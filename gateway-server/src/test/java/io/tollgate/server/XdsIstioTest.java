package io.tollgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The gateway as an Istio ingress gateway: java-control-plane serves what istiod sends a
 * {@code router} node for a Gateway, a VirtualService and three ServiceEntries
 * ({@link IstioResources}); the gateway acknowledges every resource and serves the
 * VirtualService's split on real sockets, and its node reaches the control plane with Istio's
 * structured metadata; it normalizes paths as istiod's default mesh configuration asks.
 */
class XdsIstioTest {

    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final String NODE_ID = "router~127.0.0.1~tollgate-1.istio-system~istio-system.svc.cluster.local";
    private static final String LISTENER = "0.0.0.0_10080";

    @RegisterExtension
    final XdsTestBed bed = new XdsTestBed();

    private final Map<String, AtomicInteger> served = new ConcurrentHashMap<>();
    private final Map<String, String> clientCertificateHeaders = new ConcurrentHashMap<>();

    @Test
    void acknowledgesWhatIstiodSendsAndServesTheVirtualServiceSplit() throws Exception {
        push("1", istiod(false));
        startGateway();

        // /ready follows the application of the configuration; the ACKs go to the control plane after it
        for (Class<? extends com.google.protobuf.Message> type : List.of(Cluster.class, ClusterLoadAssignment.class,
                Listener.class, RouteConfiguration.class)) {
            // the gateway is ready once it applied a response, and sends that response's ACK just after
            Await.until(type.getSimpleName() + " acknowledged", LIMIT, () -> bed.controlPlane.acked(type));
            assertThat(bed.controlPlane.acked(type)).as("%s acknowledged", type.getSimpleName()).isTrue();
        }
        assertThat(bed.controlPlane.nacks()).as("NACKs of istiod's resources").isEmpty();
        Struct metadata = bed.controlPlane.requests().get(0).getNode().getMetadata();
        assertThat(bed.controlPlane.requests().get(0).getNode().getId()).isEqualTo(NODE_ID);
        assertThat(metadata.getFieldsOrThrow("LABELS").getStructValue().getFieldsOrThrow("istio").getStringValue())
                .isEqualTo("ingressgateway");
        assertThat(metadata.getFieldsOrThrow("NAMESPACE").getStringValue()).isEqualTo("istio-system");
        assertThat(metadata.getFieldsOrThrow("ISTIO_META_DNS_CAPTURE").getKindCase()).as("a boolean, not text")
                .isEqualTo(com.google.protobuf.Value.KindCase.BOOL_VALUE);

        HttpResponse<String> toB = bed.get(LISTENER, "/b/item", Map.of("x-forwarded-client-cert", "By=spoofed"));
        assertThat(XdsTestBed.upstreamOf(toB)).isEqualTo("c");
        assertThat(toB.headers().firstValue("server")).as("server_name").contains("istio-envoy");
        assertThat(clientCertificateHeaders.get("c")).as("x-forwarded-client-cert, sanitized").isEqualTo("(none)");

        int requests = 200;
        for (int i = 0; i < requests; i++) {
            HttpResponse<String> response = bed.get(LISTENER, "/split/" + i);
            assertThat(response.statusCode()).as("GET /split/%d", i).isEqualTo(200);
        }
        int first = count("a");
        int second = count("b");
        assertThat(first + second).isEqualTo(requests);
        // 70 % of 200 is 140, with a standard deviation of 6.5: 110..170 is more than four of them
        assertThat(first).as("requests to a.example.com (weight 70 of 100)").isBetween(110, 170);
        assertThat(count("c")).as("/b alone goes to c.example.com").isEqualTo(1);
    }

    @Test
    void aRouteToTheBlackHoleClusterIsAnsweredAsEnvoyAnswersAClusterWithoutHosts() throws Exception {
        IstioResources.Snapshot istio = istiod(false);
        RouteConfiguration routes = istio.routes().get(0);
        RouteConfiguration withBlackHole = routes.toBuilder().setVirtualHosts(0, routes.getVirtualHosts(0).toBuilder()
                .addRoutes(0, Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/blocked"))
                        .setRoute(RouteAction.newBuilder().setCluster("BlackHoleCluster")))).build();
        push("1", new IstioResources.Snapshot(istio.clusters(), istio.endpoints(), istio.listeners(),
                List.of(withBlackHole)));
        startGateway();

        HttpResponse<String> blocked = bed.get(LISTENER, "/blocked");
        assertThat(blocked.statusCode()).as("Envoy's answer for a cluster with no hosts").isEqualTo(503);
        assertThat(blocked.headers().firstValue("x-tollgate-error")).contains("no_healthy_upstream");
        assertThat(served).allSatisfy((name, count) -> assertThat(count.get()).as(name).isZero());
    }

    @Test
    void normalizesPathsBeforeRoutingAsIstiodsDefaultMeshConfigAsks() throws Exception {
        push("1", istiod(true));
        startGateway();

        assertThat(bed.controlPlane.nacks()).as("NACKs of istiod's resources").isEmpty();
        try (RawHttp raw = new RawHttp(bed.uri(LISTENER, "/").getPort())) {
            RawHttp.Response response = raw.send("GET /split/%2e%2e/b/./item?x=/.. HTTP/1.1\r\nHost: gw\r\n\r\n")
                    .read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("x-upstream")).as("routed as /b/item, not /split/...").isEqualTo("c");
        }
        assertThat(count("a") + count("b")).isZero();
    }

    /**
     * Starts upstreams {@code a}, {@code b} and {@code c} and the control plane, and returns what
     * istiod sends for them, with {@code normalizePath} as the mesh's path normalization sets it.
     */
    private IstioResources.Snapshot istiod(boolean normalizePath) throws IOException {
        int a = upstream("a");
        int b = upstream("b");
        int c = upstream("c");
        bed.startControlPlane();
        return IstioResources.gateway(a, b, c, 0, normalizePath);
    }

    /** Starts the gateway as the ingress gateway node and waits for it to apply what istiod sent. */
    private void startGateway() throws Exception {
        bed.launchGateway(bootstrap());
        Await.until("the first xDS configuration applied (/ready)", LIMIT, () -> bed.readiness() == 200);
    }

    /** The bootstrap of an Istio ingress gateway node, taking everything from the test's control plane. */
    private String bootstrap() {
        return """
                admin: { address: 127.0.0.1, port: 0 }
                node:
                  id: %s
                  cluster: istio-ingressgateway.istio-system
                  metadata:
                    LABELS: { istio: ingressgateway, app: istio-ingressgateway }
                    NAMESPACE: istio-system
                    CLUSTER_ID: Kubernetes
                    ISTIO_META_DNS_CAPTURE: false
                    INTERCEPTION_MODE: NONE
                dynamic_resources:
                  ads_config: { address: 127.0.0.1, port: %d, initial_backoff: 50ms, max_backoff: 200ms }
                """.formatted(NODE_ID, bed.controlPlane.port());
    }

    private void push(String version, IstioResources.Snapshot snapshot) {
        bed.controlPlane.push(version, snapshot.clusters(), snapshot.endpoints(), snapshot.listeners(), snapshot.routes());
    }

    /** An upstream named {@code name} answering every path, counting, and noting the client certificate header it got. */
    private int upstream(String name) throws IOException {
        AtomicInteger count = served.computeIfAbsent(name, n -> new AtomicInteger());
        HttpUpstream upstream = bed.resources.add(new HttpUpstream(name));
        upstream.handle("/", exchange -> {
            count.incrementAndGet();
            String certificate = exchange.getRequestHeaders().getFirst("x-forwarded-client-cert");
            clientCertificateHeaders.put(name, certificate == null ? "(none)" : certificate);
            exchange.getResponseHeaders().set("X-Upstream", name);
            exchange.getResponseHeaders().set("Server", "upstream-" + name);
            HttpUpstream.respond(exchange, 200, name.getBytes(StandardCharsets.UTF_8));
        });
        return upstream.port();
    }

    private int count(String name) {
        return served.get(name).get();
    }
}
