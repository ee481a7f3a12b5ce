package io.tollgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestPki;
import io.tollgate.server.testing.TlsUpstream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Istio's mesh mTLS toward workloads: java-control-plane sends the clusters istiod builds with
 * automatic mutual TLS ({@code transport_socket_matches}, {@code tlsMode: istio}, the SDS secrets
 * {@code default} and {@code ROOTCA} of istio-agent's {@code sds-grpc}, the workload's SPIFFE
 * identity to check); the gateway reads those secrets from the files its bootstrap names
 * ({@code sds_files}, where istio-agent's {@code OUTPUT_CERTS} writes them) and speaks real mTLS to
 * a Netty TLS server asking for its certificate, cleartext to a workload without a sidecar, refuses
 * a workload with another identity, and takes a rotated certificate from the files.
 */
class XdsIstioMtlsTest {

    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final String LISTENER = "0.0.0.0_10080";
    private static final String IDENTITY = "spiffe://tollgate/client";

    @RegisterExtension
    final XdsTestBed bed = new XdsTestBed();

    @TempDir
    Path certs;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES) // the certificate files are looked at every 5 s
    void speaksMutualTlsToSidecarWorkloadsCleartextToTheOthersAndTakesRotatedCertificates() throws Exception {
        TlsUpstream workload = bed.resources.add(new TlsUpstream("client", true, true));
        install("client", "ca");
        startWithMeshCluster(workload.port());

        HttpResponse<String> meshed = bed.get(LISTENER, "/b/item");
        assertThat(meshed.statusCode()).isEqualTo(200);
        assertThat(meshed.body()).as("the workload saw the gateway's certificate `default`")
                .contains("client: CN=client\n", "path: /b/item\n", "alpn: http/1.1\n");
        assertThat(workload.serverNames()).contains("outbound_.80_._.c.example.com");
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> plain = bed.get(LISTENER, "/split/" + i);
            assertThat(plain.statusCode()).as("cleartext to the workloads without tlsMode").isEqualTo(200);
        }
        assertThat(bed.controlPlane.nacks()).isEmpty();

        install("stranger", "ca");
        Await.until("the rotated certificate presented to the workload's new connections", Duration.ofSeconds(20),
                () -> body("/b/item").contains("client: CN=stranger\n"));
    }

    @Test
    void refusesAWorkloadWhoseCertificateDoesNotCarryTheIdentityIstiodNames() throws Exception {
        TlsUpstream impostor = bed.resources.add(new TlsUpstream("stranger", true));
        install("client", "ca");
        startWithMeshCluster(impostor.port());

        HttpResponse<String> refused = bed.get(LISTENER, "/b/item");
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.body()).doesNotContain("client: CN=");
        assertThat(bed.get(LISTENER, "/split/1").statusCode()).as("the other hosts still served").isEqualTo(200);
    }

    /**
     * What istiod sends for the gateway: hosts {@code a} and {@code b} in cleartext ({@code a}'s
     * cluster with the mesh's matches, its endpoint without sidecar), {@code c} a sidecar
     * workload on {@code meshPort} with identity {@value #IDENTITY}; then the gateway started.
     */
    private void startWithMeshCluster(int meshPort) throws Exception {
        int a = plainUpstream("a");
        int b = plainUpstream("b");
        bed.startControlPlane();
        IstioResources.Snapshot istio = IstioResources.gateway(a, b, meshPort, 0, false);
        List<Cluster> clusters = new ArrayList<>(istio.clusters());
        clusters.set(0, IstioResources.meshCluster("a.example.com", List.of(IDENTITY)));
        clusters.set(2, IstioResources.meshCluster("c.example.com", List.of("spiffe://other/x", IDENTITY)));
        List<ClusterLoadAssignment> endpoints = new ArrayList<>(istio.endpoints());
        endpoints.set(2, IstioResources.meshEndpoints("c.example.com", meshPort));
        bed.controlPlane.push("1", clusters, endpoints, istio.listeners(), istio.routes());
        bed.launchGateway("""
                admin: { address: 127.0.0.1, port: 0 }
                node:
                  id: router~127.0.0.1~tollgate-1.istio-system~istio-system.svc.cluster.local
                  cluster: istio-ingressgateway.istio-system
                  metadata: { LABELS: { istio: ingressgateway }, NAMESPACE: istio-system }
                dynamic_resources:
                  ads_config: { address: 127.0.0.1, port: %d, initial_backoff: 50ms, max_backoff: 200ms }
                  sds_files:
                    default: { cert_chain_file: %s, private_key_file: %s }
                    ROOTCA: { ca_file: %s }
                """.formatted(bed.controlPlane.port(), certs.resolve("cert-chain.pem"), certs.resolve("key.pem"),
                certs.resolve("root-cert.pem")));
        Await.until("the first xDS configuration applied (/ready)", LIMIT, () -> bed.readiness() == 200);
    }

    /** Puts {@code certificate}'s chain and key and {@code ca} where the bootstrap says, each file replaced whole. */
    private void install(String certificate, String ca) throws IOException {
        replace(TestPki.cert(certificate), certs.resolve("cert-chain.pem"));
        replace(TestPki.key(certificate), certs.resolve("key.pem"));
        replace(TestPki.cert(ca), certs.resolve("root-cert.pem"));
    }

    private static void replace(Path from, Path to) throws IOException {
        Path next = to.resolveSibling(to.getFileName() + ".next");
        Files.copy(from, next, StandardCopyOption.REPLACE_EXISTING);
        Files.move(next, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private String body(String path) {
        try {
            return bed.get(LISTENER, path).body();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private int plainUpstream(String name) throws IOException {
        return bed.resources.add(new HttpUpstream(name)).port();
    }
}
