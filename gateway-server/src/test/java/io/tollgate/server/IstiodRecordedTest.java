package io.tollgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.TestPki;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a real istiod (pilot-discovery, recorded by {@code bin/istio-record.sh} with
 * {@link IstiodRecorder}: {@code src/test/resources/istio/recorded}) sent a gateway node, replayed
 * as it came by the in-process control plane: ServiceEntry clusters (static and resolved by DNS)
 * and a mesh service whose DestinationRule says {@code ISTIO_MUTUAL} (a TLS transport socket with
 * the SDS {@code default} and {@code ROOTCA} of {@code sds-grpc}, the workload's SPIFFE identity,
 * Istio's ALPN and SNI), with their endpoints. The
 * gateway, its mesh secrets in files, acknowledges every one.
 */
class IstiodRecordedTest {

    private static final Duration LIMIT = Duration.ofSeconds(30);

    @RegisterExtension
    final XdsTestBed bed = new XdsTestBed();

    @Test
    void acknowledgesTheClustersAndEndpointsIstiodSentIncludingItsMeshMutualTls() throws Exception {
        List<Cluster> clusters = recorded("clusters.pb", Cluster.class);
        List<ClusterLoadAssignment> endpoints = recorded("endpoints.pb", ClusterLoadAssignment.class);
        assertThat(clusters).as("what istiod sent").extracting(Cluster::getName)
                .contains("outbound|80||app.default.svc.cluster.local", "outbound|80||dns.example.com");
        assertThat(clusters).as("the mesh service's ISTIO_MUTUAL").filteredOn(Cluster::hasTransportSocket)
                .extracting(Cluster::getName).containsExactly("outbound|80||app.default.svc.cluster.local");
        bed.startControlPlane();
        bed.controlPlane.push("1", clusters, endpoints, recorded("listeners.pb", Listener.class), List.<RouteConfiguration>of());
        bed.launchGateway("""
                admin: { address: 127.0.0.1, port: 0 }
                node: { id: %s, cluster: istio-ingressgateway.istio-system }
                dynamic_resources:
                  ads_config: { address: 127.0.0.1, port: %d, initial_backoff: 50ms, max_backoff: 200ms }
                  sds_files:
                    default: { cert_chain_file: %s, private_key_file: %s }
                    ROOTCA: { ca_file: %s }
                """.formatted(IstiodRecorder.NODE_ID, bed.controlPlane.port(), TestPki.cert("client"),
                TestPki.key("client"), TestPki.cert("ca")));
        Await.until("the first xDS configuration applied (/ready)", LIMIT, () -> bed.readiness() == 200);

        // the ACKs go to the control plane after the configuration is applied (/ready)
        Await.until("the clusters acknowledged", LIMIT, () -> bed.controlPlane.acked(Cluster.class));
        Await.until("the endpoints acknowledged", LIMIT, () -> bed.controlPlane.acked(ClusterLoadAssignment.class));
        assertThat(bed.controlPlane.nacks()).as("NACKs of istiod's resources").isEmpty();
    }

    /** The resources of the recorded response {@code file}. */
    private static <T extends Message> List<T> recorded(String file, Class<T> type) throws IOException {
        try (InputStream in = IstiodRecordedTest.class.getResourceAsStream("/istio/recorded/" + file)) {
            List<T> resources = new ArrayList<>();
            for (Any any : DiscoveryResponse.parseFrom(in).getResourcesList()) {
                resources.add(any.unpack(type));
            }
            return resources;
        }
    }
}
