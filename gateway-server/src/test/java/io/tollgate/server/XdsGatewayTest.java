package io.tollgate.server;

import static io.tollgate.server.EnvoyResources.assignment;
import static io.tollgate.server.EnvoyResources.edsCluster;
import static io.tollgate.server.EnvoyResources.rdsListener;
import static io.tollgate.server.EnvoyResources.routes;
import static io.tollgate.server.EnvoyResources.staticCluster;
import static io.tollgate.server.XdsTestBed.LIMIT;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.TestPki;
import io.tollgate.server.testing.TrafficLoop;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real gateway fed by a real xDS control plane (java-control-plane in the test's process), with
 * real upstreams and the JDK's HTTP client: listeners, routes, clusters and endpoints arrive over
 * ADS and serve traffic; endpoint pushes move traffic with no failed request; a bad resource is
 * refused with a NACK naming it while the last good configuration serves; the gateway keeps
 * serving while the control plane is away and picks up again when it returns.
 */
class XdsGatewayTest {

    @RegisterExtension
    final XdsTestBed bed = new XdsTestBed();

    @Test
    void aListenerAndRoutesFromXdsServeTrafficAndEndpointPushesMoveItWithNoFailedRequest() throws Exception {
        int a = bed.upstream("a");
        int b = bed.upstream("b");
        bed.startControlPlane();
        bed.pushApp("1", a);
        bed.startGateway();

        assertThat(bed.get("/x").headers().firstValue("x-upstream")).hasValue("a");
        try (TrafficLoop traffic = bed.traffic()) {
            bed.pushApp("2", a, b);
            Await.until("b served traffic", LIMIT, () -> bed.served("b") >= 20);

            bed.pushApp("3", b);
            Await.until("endpoints of version 3 acknowledged", LIMIT,
                    () -> bed.controlPlane.acks("type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment").stream()
                            .anyMatch(r -> r.getVersionInfo().equals("3")));
            int onB = bed.served("b");
            Await.until("b served more traffic", LIMIT, () -> bed.served("b") >= onB + 20);
            // a request already on its way to a when the push landed may still finish there
            int onA = bed.served("a");
            int onBAfter = bed.served("b");
            Await.until("b served yet more traffic", LIMIT, () -> bed.served("b") >= onBAfter + 20);
            assertThat(bed.served("a")).isEqualTo(onA);
            assertThat(traffic.stop()).isEmpty();
        }
        String dump = bed.admin("/config_dump").body().replaceAll("\\s", "");
        assertThat(dump).contains("\"xds_resources\"", "\"type\":\"ClusterLoadAssignment\",\"name\":\"app\",\"version\":\"3\"",
                "\"type\":\"Listener\",\"name\":\"web\"");
        assertThat(bed.controlPlane.acks("type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment"))
                .extracting(DiscoveryRequest::getVersionInfo).contains("1", "2", "3");
    }

    @Test
    void aListenerWaitsForTheEndpointsOfANewClusterBeforeItsRoutesSwitch() throws Exception {
        int a = bed.upstream("a");
        int b = bed.upstream("b");
        bed.startControlPlane();
        bed.pushApp("1", a);
        bed.startGateway();

        // The control plane sends the new cluster and the route to it, but not yet its endpoints.
        bed.controlPlane.push("2", List.of(edsCluster("app"), edsCluster("next")), List.of(assignment("app", a)),
                List.of(rdsListener("web", 0, "web-routes")), List.of(routes("web-routes", Map.of("/", "next"))));
        Await.until("routes of version 2 acknowledged", LIMIT,
                () -> bed.controlPlane.acks("type.googleapis.com/envoy.config.route.v3.RouteConfiguration").stream()
                        .anyMatch(r -> r.getVersionInfo().equals("2")));
        assertThat(bed.get("/x").headers().firstValue("x-upstream")).hasValue("a");

        bed.controlPlane.push("3", List.of(edsCluster("app"), edsCluster("next")),
                List.of(assignment("app", a), assignment("next", b)), List.of(rdsListener("web", 0, "web-routes")),
                List.of(routes("web-routes", Map.of("/", "next"))));
        Await.until("traffic on the new cluster", LIMIT, () -> "b".equals(bed.upstreamAt("/x")));
    }

    @Test
    void aBadResourceIsNackedNamingItsFieldAndTheLastGoodConfigurationKeepsServing() throws Exception {
        int a = bed.upstream("a");
        bed.startControlPlane();
        bed.pushApp("1", a);
        bed.startGateway();

        Cluster bad = edsCluster("app").toBuilder().setLbPolicy(Cluster.LbPolicy.CLUSTER_PROVIDED).build();
        bed.controlPlane.push("2", List.of(bad), List.of(assignment("app", a)), List.of(rdsListener("web", 0, "web-routes")),
                List.of(routes("web-routes", Map.of("/", "app"))));
        Await.until("a NACK of the clusters", LIMIT, () -> !bed.controlPlane.nacks().isEmpty());

        DiscoveryRequest nack = bed.controlPlane.nacks().get(0);
        assertThat(nack.getTypeUrl()).isEqualTo("type.googleapis.com/envoy.config.cluster.v3.Cluster");
        assertThat(nack.getVersionInfo()).isEqualTo("1");
        assertThat(nack.getResponseNonce()).isNotEmpty();
        assertThat(nack.getErrorDetail().getMessage()).startsWith("Cluster 'app'.lb_policy: CLUSTER_PROVIDED not supported");
        assertThat(bed.get("/x").headers().firstValue("x-upstream")).hasValue("a");
        assertThat(bed.admin("/stats/prometheus").body())
                .containsPattern("tollgate_xds_response_total\\{result=\"nack\",type=\"Cluster\"} [1-9]");
        assertThat(bed.admin("/config_dump").body()).containsPattern("\"last_nack\"\\s*:\\s*\"Cluster 'app'.lb_policy: CLUSTER_PROVIDED");

        bed.controlPlane.push("3", List.of(edsCluster("app"), staticCluster("other", bed.upstream("other"))),
                List.of(assignment("app", a)), List.of(rdsListener("web", 0, "web-routes")),
                List.of(routes("web-routes", XdsTestBed.ordered("/other", "other", "/", "app"))));
        Await.until("the next good version serves", LIMIT, () -> "other".equals(bed.upstreamAt("/other")));
    }

    @Test
    void aChangedListenerIsReplacedOnItsSocketUnderLoadAndItsOldConnectionsDrain() throws Exception {
        int a = bed.upstream("a");
        bed.startControlPlane();
        bed.pushApp("1", a);
        bed.startGateway();
        int port = bed.gateway.port("web");

        try (TrafficLoop traffic = bed.traffic()) {
            Await.until("a served traffic", LIMIT, () -> bed.served("a") >= 20);
            for (int i = 0; i < 7; i++) {
                HttpConnectionManager.CodecType codec = i % 2 == 0 ? HttpConnectionManager.CodecType.HTTP1
                        : HttpConnectionManager.CodecType.AUTO;
                bed.controlPlane.push(Integer.toString(i + 2), List.of(edsCluster("app")), List.of(assignment("app", a)),
                        List.of(rdsListener("web", 0, "web-routes", codec)), List.of(routes("web-routes", Map.of("/", "app"))));
                String version = Integer.toString(i + 2);
                Await.until("listeners of version " + version + " acknowledged", LIMIT,
                        () -> bed.controlPlane.acks("type.googleapis.com/envoy.config.listener.v3.Listener").stream()
                                .anyMatch(r -> r.getVersionInfo().equals(version)));
                int before = bed.served("a");
                Await.until("traffic after version " + version, LIMIT, () -> bed.served("a") >= before + 20);
            }
            assertThat(traffic.stop()).isEmpty();
        }

        assertThat(bed.controlPlane.nacks()).isEmpty();
        assertThat(bed.gateway.port("web")).isEqualTo(port);
        assertThat(bed.gateway.snapshot().config().listeners()).singleElement()
                .satisfies(l -> assertThat(l.protocols()).containsExactly("http1"));
        assertThat(bed.gateway.metrics().registry().find(MetricNames.SERVER_DRAIN_STARTED).tag("trigger", "listener_changed")
                .counter().count()).isEqualTo(7);
    }

    @Test
    void theGatewayKeepsServingWhileTheControlPlaneIsAwayAndReconnectsWhenItReturns() throws Exception {
        int a = bed.upstream("a");
        int other = bed.upstream("other");
        bed.startControlPlane();
        bed.pushApp("1", a);
        bed.startGateway();

        bed.controlPlane.stop();
        try (TrafficLoop traffic = bed.traffic()) {
            Await.until("a served traffic without a control plane", LIMIT, () -> bed.served("a") >= 50);
            assertThat(traffic.stop()).isEmpty();
        }

        bed.controlPlane.push("2", List.of(edsCluster("app"), staticCluster("other", other)), List.of(assignment("app", a)),
                List.of(rdsListener("web", 0, "web-routes")), List.of(routes("web-routes", XdsTestBed.ordered("/other", "other", "/", "app"))));
        bed.controlPlane.start();
        Await.until("the pushed routes serve after the reconnection", LIMIT, () -> "other".equals(bed.upstreamAt("/other")));
        assertThat(bed.get("/x").headers().firstValue("x-upstream")).hasValue("a");
    }

    @Test
    void staticListenersRouteToClustersFromXdsAndAReloadOfTheFileKeepsTheDynamicResources(@TempDir Path dir)
            throws Exception {
        int a = bed.upstream("a");
        int b = bed.upstream("b");
        bed.startControlPlane();
        bed.pushApp("1", a);
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
        Files.writeString(file, bootstrap.formatted(bed.controlPlane.port(), "", b));
        bed.gateway = bed.resources.add(Gateway.start(ConfigLoader.load(file), file));
        bed.awaitReady();

        assertThat(bed.upstreamAt("edge", "/x")).isEqualTo("a");
        Files.writeString(file, bootstrap.formatted(bed.controlPlane.port(),
                "            - { match: { prefix: /file }, route: { cluster: from-file } }", b));
        bed.gateway.reload();

        assertThat(bed.upstreamAt("edge", "/file")).isEqualTo("b");
        assertThat(bed.upstreamAt("edge", "/x")).isEqualTo("a");
        assertThat(bed.upstreamAt("web", "/x")).isEqualTo("a");
    }

    @Test
    void theStreamToTheControlPlaneMayBeTlsCheckingItsCertificate() throws Exception {
        int a = bed.upstream("a");
        bed.controlPlane = bed.resources.add(new ControlPlane(
                GrpcSslContexts.forServer(TestPki.cert("localhost").toFile(), TestPki.key("localhost").toFile()).build()));
        bed.pushApp("1", a);
        bed.gateway = bed.resources.add(Gateway.start(ConfigLoader.parse("""
                admin: { address: 127.0.0.1, port: 0 }
                node: { id: tollgate-test, cluster: ingress }
                dynamic_resources:
                  ads_config:
                    address: 127.0.0.1
                    port: %d
                    tls: { ca_file: %s, sni: localhost }
                """.formatted(bed.controlPlane.port(), TestPki.cert("ca")))));
        bed.awaitReady();

        assertThat(bed.upstreamAt("/x")).isEqualTo("a");
    }

    @Test
    void endpointLabelsFromEnvoyLbMetadataServeTheSubsetARouteAsksFor() throws Exception {
        int v1 = bed.upstream("a");
        int v2 = bed.upstream("b");
        bed.startControlPlane();
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
        bed.controlPlane.push("1", List.of(subsets), List.of(labelled), List.of(rdsListener("web", 0, "web-routes")),
                List.of(toV2));
        bed.startGateway();

        for (int i = 0; i < 20; i++) {
            assertThat(bed.upstreamAt("/x")).isEqualTo("b");
        }
    }

    /** Subset labels as Envoy carries them: {@code version} in the {@code envoy.lb} filter metadata. */
    private static Metadata lb(String version) {
        return Metadata.newBuilder().putFilterMetadata("envoy.lb", Struct.newBuilder()
                .putFields("version", Value.newBuilder().setStringValue(version).build()).build()).build();
    }
}
