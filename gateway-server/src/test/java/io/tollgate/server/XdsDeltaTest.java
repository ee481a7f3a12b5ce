package io.tollgate.server;

import static io.tollgate.server.EnvoyResources.assignment;
import static io.tollgate.server.EnvoyResources.edsCluster;
import static io.tollgate.server.EnvoyResources.rdsListener;
import static io.tollgate.server.EnvoyResources.routes;
import static io.tollgate.server.XdsTestBed.LIMIT;
import static io.tollgate.server.XdsTestBed.ordered;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.TrafficLoop;
import io.tollgate.xds.translation.ResourceType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The gateway over incremental ADS ({@code api_type: DELTA_GRPC}) against java-control-plane's
 * delta server: wildcard listeners and clusters, routes and endpoints subscribed to by name and
 * unsubscribed from when no longer named, removed resources, per-resource versions, ACKs and NACKs
 * by nonce, and a reconnection telling the control plane what the gateway holds. Real upstreams,
 * the JDK's HTTP client, changes under load with no failed request.
 */
class XdsDeltaTest {

    private static final String CDS = ResourceType.CLUSTER.typeUrl();
    private static final String EDS = ResourceType.ENDPOINT.typeUrl();
    private static final String LDS = ResourceType.LISTENER.typeUrl();
    private static final String RDS = ResourceType.ROUTE.typeUrl();

    @RegisterExtension
    final XdsTestBed bed = new XdsTestBed();

    @Test
    void resourcesArriveIncrementallyAndChangesUnderLoadFailNoRequest() throws Exception {
        int a = bed.upstream("a");
        int b = bed.upstream("b");
        int c = bed.upstream("c");
        startOnApp(a);

        assertThat(bed.upstreamAt("/x")).isEqualTo("a");
        assertThat(first(CDS).getResourceNamesSubscribeList()).isEmpty();
        assertThat(first(LDS).getResourceNamesSubscribeList()).isEmpty();
        assertThat(first(RDS).getResourceNamesSubscribeList()).containsExactly("web-routes");
        assertThat(first(EDS).getResourceNamesSubscribeList()).containsExactly("app");
        assertThat(first(CDS).getNode().getId()).isEqualTo("tollgate-test");
        assertThat(bed.controlPlane.deltaAcks(CDS)).isNotEmpty();

        try (TrafficLoop traffic = bed.traffic()) {
            bed.pushApp("2", a, b);
            Await.until("b served traffic", LIMIT, () -> bed.served("b") >= 20);

            // a new route to a new cluster, and endpoint a removed
            pushAppAndOther("3", b, c);
            Await.until("the new route serves", LIMIT, () -> "c".equals(bed.upstreamAt("/other")));
            assertThat(subscribed(EDS)).contains("other");
            int onA = bed.served("a");
            int onB = bed.served("b");
            Await.until("b served more traffic", LIMIT, () -> bed.served("b") >= onB + 20);
            assertThat(bed.served("a")).isEqualTo(onA);

            // the cluster removed with its route: removed_resources, and its endpoints unsubscribed from
            bed.controlPlane.push("4", List.of(edsCluster("app")), List.of(assignment("app", b)),
                    List.of(rdsListener("web", 0, "web-routes")), List.of(routes("web-routes", Map.of("/", "app"))));
            Await.until("cluster 'other' removed", LIMIT, () -> bed.gateway.snapshot().config().clusters().stream()
                    .map(ClusterConfig::name).noneMatch("other"::equals));
            assertThat(responses(CDS)).anyMatch(r -> r.getRemovedResourcesList().contains("other"));
            Await.until("the endpoints of 'other' unsubscribed from", LIMIT, () -> bed.controlPlane.deltaRequests()
                    .stream().anyMatch(r -> r.getTypeUrl().equals(EDS)
                            && r.getResourceNamesUnsubscribeList().contains("other")));
            Await.until("the routes without /other serve", LIMIT, () -> "b".equals(bed.upstreamAt("/other")));
            int onBAfter = bed.served("b");
            Await.until("b served yet more traffic", LIMIT, () -> bed.served("b") >= onBAfter + 20);
            assertThat(traffic.stop()).isEmpty();
        }
        assertThat(configDump()).contains("\"type\":\"ClusterLoadAssignment\",\"name\":\"app\",\"version\":\""
                + lastVersion(EDS, "app") + "\"", "\"type\":\"Cluster\",\"name\":\"app\",\"version\":\""
                + lastVersion(CDS, "app") + "\"").doesNotContain("\"name\":\"other\"");
    }

    @Test
    void endpointsNoLongerAskedForLeaveTheConfigDumpWithoutWaitingForTheControlPlane() throws Exception {
        int a = bed.upstream("a");
        int c = bed.upstream("c");
        startOnApp(a);
        pushAppAndOther("2", a, c);
        Await.until("the route to 'other' serves", LIMIT, () -> "c".equals(bed.upstreamAt("/other")));
        assertThat(configDump()).contains("\"type\":\"ClusterLoadAssignment\",\"name\":\"other\"");

        // cluster 'other' removed, its endpoints kept by the control plane: no EDS response removes them
        bed.controlPlane.push("3", List.of(edsCluster("app")), List.of(assignment("app", a), assignment("other", c)),
                List.of(rdsListener("web", 0, "web-routes")), List.of(routes("web-routes", Map.of("/", "app"))));
        Await.until("the endpoints of 'other' unsubscribed from", LIMIT, () -> bed.controlPlane.deltaRequests()
                .stream().anyMatch(r -> r.getTypeUrl().equals(EDS) && r.getResourceNamesUnsubscribeList().contains("other")));
        Await.until("'other' gone from the config dump", LIMIT,
                () -> !configDump().contains("\"name\":\"other\""));
        assertThat(responses(EDS)).noneMatch(r -> r.getRemovedResourcesList().contains("other"));
    }

    @Test
    void aListenerRemovedStopsServingAndItsRoutesAreUnsubscribedFrom() throws Exception {
        int a = bed.upstream("a");
        bed.startControlPlane();
        pushListeners("1", a, "web", "side");
        startGateway();
        assertThat(bed.upstreamAt("side", "/x")).isEqualTo("a");
        int sidePort = bed.gateway.port("side");

        pushListeners("2", a, "web");
        Await.until("listener 'side' removed", LIMIT, () -> bed.gateway.snapshot().config().listeners().stream()
                .map(ListenerConfig::name).noneMatch("side"::equals));
        assertThat(responses(LDS)).anyMatch(r -> r.getRemovedResourcesList().contains("side"));
        Await.until("the routes of 'side' unsubscribed from", LIMIT, () -> bed.controlPlane.deltaRequests().stream()
                .anyMatch(r -> r.getTypeUrl().equals(RDS) && r.getResourceNamesUnsubscribeList().contains("side-routes")));
        Await.until("the port of 'side' closed", LIMIT, () -> {
            try (Socket ignored = new Socket("127.0.0.1", sidePort)) {
                return false;
            } catch (IOException e) {
                return true;
            }
        });
        assertThat(bed.upstreamAt("web", "/x")).isEqualTo("a");
    }

    @Test
    void endpointsRemovedByTheControlPlaneLeaveTheirClusterWithNoHostsUntilTheyReturn() throws Exception {
        int a = bed.upstream("a");
        startOnApp(a);
        assertThat(bed.upstreamAt("/x")).isEqualTo("a");

        bed.controlPlane.push("2", List.of(edsCluster("app")), List.of(), List.of(rdsListener("web", 0, "web-routes")),
                List.of(routes("web-routes", Map.of("/", "app"))));
        Await.until("no host for cluster 'app'", LIMIT, () -> bed.upstreamAt("/x").startsWith("503"));
        assertThat(responses(EDS)).anyMatch(r -> r.getRemovedResourcesList().contains("app"));
        assertThat(bed.readiness()).isEqualTo(200);

        bed.pushApp("3", a);
        Await.until("the endpoints back", LIMIT, () -> "a".equals(bed.upstreamAt("/x")));
    }

    @Test
    void aGatewayWhoseListenersAreAllInTheFileIsReadyOnceNoListenerCameWithinTheInitialFetchTimeout() throws Exception {
        int a = bed.upstream("a");
        bed.startControlPlane();
        bed.controlPlane.push("1", List.of(edsCluster("app")), List.of(assignment("app", a)), List.of(), List.of());
        // Envoy's default initial_fetch_timeout is 15 s; 5 s still leaves the cluster time to arrive first
        bed.gateway = bed.resources.add(Gateway.start(ConfigLoader.parse(bed.controlPlane.bootstrap("DELTA_GRPC") + """
                  initial_fetch_timeout: 5s
                listeners:
                  - name: web
                    route_config:
                      virtual_hosts:
                        - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: app } } ] }
                """)));

        Await.until("the cluster from xDS serves the file's listener", LIMIT, () -> "a".equals(bed.upstreamAt("/x")));
        assertThat(bed.readiness()).as("no listener response yet").isEqualTo(503);
        assertThat(responses(LDS)).isEmpty();
        Await.until("ready after the listeners' initial fetch timeout", LIMIT.multipliedBy(3),
                () -> bed.readiness() == 200);
    }

    @Test
    void aBadResourceIsNackedByNonceNamingItsFieldAndTheLastGoodVersionKeepsServing() throws Exception {
        int a = bed.upstream("a");
        int c = bed.upstream("c");
        startOnApp(a);

        Cluster bad = edsCluster("app").toBuilder().setLbPolicy(Cluster.LbPolicy.CLUSTER_PROVIDED).build();
        bed.controlPlane.push("2", List.of(bad), List.of(assignment("app", a)), List.of(rdsListener("web", 0, "web-routes")),
                List.of(routes("web-routes", Map.of("/", "app"))));
        Await.until("a NACK of the clusters", LIMIT, () -> !bed.controlPlane.deltaNacks().isEmpty());

        DeltaDiscoveryRequest nack = bed.controlPlane.deltaNacks().get(0);
        DeltaDiscoveryResponse refused = responses(CDS).stream().filter(r -> r.getSystemVersionInfo().equals("2"))
                .findFirst().orElseThrow();
        assertThat(nack.getTypeUrl()).isEqualTo(CDS);
        assertThat(nack.getResponseNonce()).isEqualTo(refused.getNonce());
        assertThat(nack.getErrorDetail().getMessage()).startsWith("Cluster 'app'.lb_policy: CLUSTER_PROVIDED not supported");
        assertThat(bed.upstreamAt("/x")).isEqualTo("a");
        assertThat(bed.admin("/config_dump").body())
                .containsPattern("\"last_nack\"\\s*:\\s*\"Cluster 'app'.lb_policy: CLUSTER_PROVIDED");
        assertThat(bed.admin("/stats/prometheus").body())
                .containsPattern("tollgate_xds_response_total\\{result=\"nack\",type=\"Cluster\"} [1-9]");

        pushAppAndOther("3", a, c);
        Await.until("the next good version serves", LIMIT, () -> "c".equals(bed.upstreamAt("/other")));
        assertThat(bed.upstreamAt("/x")).isEqualTo("a");
    }

    @Test
    void servingContinuesWithoutTheControlPlaneAndTheReconnectionTellsWhatTheGatewayHolds() throws Exception {
        int a = bed.upstream("a");
        int c = bed.upstream("c");
        startOnApp(a);
        Map<String, String> clusters = held(CDS);
        Map<String, String> listeners = held(LDS);
        Map<String, String> routes = held(RDS);
        Map<String, String> endpoints = held(EDS);

        bed.controlPlane.stop();
        int before = bed.controlPlane.deltaRequests().size();
        try (TrafficLoop traffic = bed.traffic()) {
            Await.until("a served traffic without a control plane", LIMIT, () -> bed.served("a") >= 50);
            pushAppAndOther("2", a, c);
            bed.controlPlane.start();
            Await.until("the pushed routes serve after the reconnection", LIMIT,
                    () -> "c".equals(bed.upstreamAt("/other")));
            assertThat(traffic.stop()).isEmpty();
        }

        List<DeltaDiscoveryRequest> again = bed.controlPlane.deltaRequests().subList(before,
                bed.controlPlane.deltaRequests().size());
        assertThat(firstOf(again, CDS).getInitialResourceVersionsMap()).isEqualTo(clusters).containsKey("app");
        assertThat(firstOf(again, LDS).getInitialResourceVersionsMap()).isEqualTo(listeners).containsKey("web");
        assertThat(firstOf(again, RDS).getInitialResourceVersionsMap()).isEqualTo(routes).containsKey("web-routes");
        assertThat(firstOf(again, RDS).getResourceNamesSubscribeList()).containsExactly("web-routes");
        assertThat(firstOf(again, EDS).getInitialResourceVersionsMap()).isEqualTo(endpoints).containsKey("app");
        assertThat(firstOf(again, EDS).getResourceNamesSubscribeList()).containsExactly("app");
        assertThat(firstOf(again, CDS).getResponseNonce()).isEmpty();
    }

    /** Starts the control plane with cluster {@code app} on {@code port} (version 1) and a gateway on it, over delta. */
    private void startOnApp(int port) throws Exception {
        bed.startControlPlane();
        bed.pushApp("1", port);
        startGateway();
    }

    private void startGateway() throws Exception {
        bed.startGateway(bed.controlPlane.bootstrap("DELTA_GRPC"));
    }

    /** Pushes clusters {@code app} and {@code other} on their ports, and listener {@code web} routing {@code /other} to other, the rest to app. */
    private void pushAppAndOther(String version, int app, int other) {
        bed.controlPlane.push(version, List.of(edsCluster("app"), edsCluster("other")),
                List.of(assignment("app", app), assignment("other", other)), List.of(rdsListener("web", 0, "web-routes")),
                List.of(routes("web-routes", ordered("/other", "other", "/", "app"))));
    }

    /** Pushes cluster {@code app} on {@code port} and, for each name, a listener routing everything to it. */
    private void pushListeners(String version, int port, String... names) {
        bed.controlPlane.push(version, List.of(edsCluster("app")), List.of(assignment("app", port)),
                Arrays.stream(names).map(n -> rdsListener(n, 0, n + "-routes")).toList(),
                Arrays.stream(names).map(n -> routes(n + "-routes", Map.of("/", "app"))).toList());
    }

    /** The admin's /config_dump without white space. */
    private String configDump() {
        try {
            return bed.admin("/config_dump").body().replaceAll("\\s", "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private DeltaDiscoveryRequest first(String typeUrl) {
        return firstOf(bed.controlPlane.deltaRequests(), typeUrl);
    }

    private static DeltaDiscoveryRequest firstOf(List<DeltaDiscoveryRequest> requests, String typeUrl) {
        return requests.stream().filter(r -> r.getTypeUrl().equals(typeUrl)).findFirst().orElseThrow();
    }

    /** Every name subscribed to for {@code typeUrl} on any stream. */
    private List<String> subscribed(String typeUrl) {
        return bed.controlPlane.deltaRequests().stream().filter(r -> r.getTypeUrl().equals(typeUrl))
                .flatMap(r -> r.getResourceNamesSubscribeList().stream()).toList();
    }

    private List<DeltaDiscoveryResponse> responses(String typeUrl) {
        return bed.controlPlane.deltaResponses().stream().filter(r -> r.getTypeUrl().equals(typeUrl)).toList();
    }

    /** The version of resource {@code name} the control plane last sent. */
    private String lastVersion(String typeUrl, String name) {
        return held(typeUrl).get(name);
    }

    /** Each resource of {@code typeUrl} the control plane sent and did not remove since, with its last version. */
    private Map<String, String> held(String typeUrl) {
        Map<String, String> held = new HashMap<>();
        for (DeltaDiscoveryResponse response : responses(typeUrl)) {
            for (Resource resource : response.getResourcesList()) {
                held.put(resource.getName(), resource.getVersion());
            }
            response.getRemovedResourcesList().forEach(held::remove);
        }
        return held;
    }
}
