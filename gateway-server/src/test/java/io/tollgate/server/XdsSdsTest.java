package io.tollgate.server;

import static io.tollgate.server.EnvoyResources.assignment;
import static io.tollgate.server.EnvoyResources.caSecret;
import static io.tollgate.server.EnvoyResources.certificateSecret;
import static io.tollgate.server.EnvoyResources.downstreamTls;
import static io.tollgate.server.EnvoyResources.edsCluster;
import static io.tollgate.server.EnvoyResources.rdsListener;
import static io.tollgate.server.EnvoyResources.routes;
import static io.tollgate.server.EnvoyResources.tlsCluster;
import static io.tollgate.server.EnvoyResources.tlsListener;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.listener.v3.FilterChainMatch;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.TestPki;
import io.tollgate.server.testing.TlsUpstream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SDS over the ADS stream with a real control plane, real TLS clients (the JDK's, trusting the
 * test CA) and real upstreams: a TLS listener warms until its certificate secret arrives, a pushed
 * new version of the secret is presented to new handshakes while open connections carry on, filter
 * chains chosen by SNI present their own certificates, and a cluster reaches its hosts over TLS
 * with a CA and a client certificate from SDS.
 */
class XdsSdsTest {

    private static final Duration LIMIT = Duration.ofSeconds(30);

    @RegisterExtension
    final XdsTestBed bed = new XdsTestBed();

    @Test
    void aTlsListenerWarmsUntilItsSecretArrivesAndARotatedSecretServesNewHandshakesWhileOpenConnectionsCarryOn()
            throws Exception {
        int a = bed.upstream("a");
        bed.startControlPlane();
        List<Listener> listeners = List.of(tlsListener("secure", 0, "web-routes", "server-cert"));
        bed.controlPlane.push("1", List.of(edsCluster("app")), List.of(assignment("app", a)), listeners,
                List.of(routes("web-routes", Map.of("/", "app"))));
        bed.launchGateway(bed.controlPlane.bootstrap("GRPC"));

        Await.until("the secret asked for", LIMIT, () -> bed.controlPlane.requests().stream()
                .anyMatch(r -> r.getTypeUrl().endsWith("tls.v3.Secret") && r.getResourceNamesList().contains("server-cert")));
        assertThat(bed.readiness()).isEqualTo(503);
        assertThat(bed.gateway.snapshot().config().listeners()).extracting(ListenerConfig::name).doesNotContain("secure");

        bed.controlPlane.push("2", List.of(edsCluster("app")), List.of(assignment("app", a)), listeners,
                List.of(routes("web-routes", Map.of("/", "app"))), List.of(certificateSecret("server-cert", "localhost")));
        Await.until("ready once the secret arrived", LIMIT, () -> bed.readiness() == 200);
        HttpClient open = client();
        HttpResponse<String> first = get(open, "/x");
        assertThat(first.body()).startsWith("upstream: a");
        X509Certificate before = peer(first);
        assertThat(before).isEqualTo(TestPki.certificate(TestPki.cert("localhost")));

        bed.controlPlane.push("3", List.of(edsCluster("app")), List.of(assignment("app", a)), listeners,
                List.of(routes("web-routes", Map.of("/", "app"))),
                List.of(certificateSecret("server-cert", "localhost-next")));
        Certificate next = TestPki.certificate(TestPki.cert("localhost-next"));
        Await.until("a new connection is presented the rotated certificate", LIMIT, () -> next.equals(newPeer()));
        HttpResponse<String> again = get(open, "/y");
        assertThat(again.body()).startsWith("upstream: a");
        assertThat(peer(again)).as("the connection opened before the rotation keeps its handshake").isEqualTo(before);
    }

    @Test
    void filterChainsChosenByServerNamePresentTheirOwnCertificates() throws Exception {
        int a = bed.upstream("a");
        bed.startControlPlane();
        Listener plain = rdsListener("secure", 0, "web-routes");
        Listener bySni = plain.toBuilder()
                .setFilterChains(0, plain.getFilterChains(0).toBuilder().setTransportSocket(downstreamTls("default")))
                .addFilterChains(plain.getFilterChains(0).toBuilder().setTransportSocket(downstreamTls("a"))
                        .setFilterChainMatch(FilterChainMatch.newBuilder().addServerNames("a.test")))
                .addFilterChains(plain.getFilterChains(0).toBuilder().setTransportSocket(downstreamTls("b"))
                        .setFilterChainMatch(FilterChainMatch.newBuilder().addServerNames("*.b.test")))
                .build();
        bed.controlPlane.push("1", List.of(edsCluster("app")), List.of(assignment("app", a)), List.of(bySni),
                List.of(routes("web-routes", Map.of("/", "app"))), List.of(certificateSecret("default", "localhost"),
                        certificateSecret("a", "a.test"), certificateSecret("b", "b.test")));
        bed.launchGateway(bed.controlPlane.bootstrap("GRPC"));
        Await.until("ready", LIMIT, () -> bed.readiness() == 200);

        assertThat(certificateFor("a.test")).isEqualTo(TestPki.certificate(TestPki.cert("a.test")));
        assertThat(certificateFor("api.b.test")).isEqualTo(TestPki.certificate(TestPki.cert("b.test")));
        assertThat(certificateFor("other.test")).isEqualTo(TestPki.certificate(TestPki.cert("localhost")));
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"GRPC", "DELTA_GRPC"})
    void aClusterReachesItsHostsOverTlsWithTheCaAndClientCertificateFromSds(String apiType) throws Exception {
        TlsUpstream secure = bed.resources.add(new TlsUpstream("a.test", true));
        bed.startControlPlane();
        List<Secret> secrets = List.of(caSecret("upstream-ca", "ca"), certificateSecret("client-cert", "client"));
        bed.controlPlane.push("1", List.of(tlsCluster("app", "a.test", "upstream-ca", "client-cert", secure.port())),
                List.of(), List.of(rdsListener("web", 0, "web-routes")), List.of(routes("web-routes", Map.of("/", "app"))),
                secrets);
        bed.launchGateway(bed.controlPlane.bootstrap(apiType));
        Await.until("ready", LIMIT, () -> bed.readiness() == 200);

        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + bed.gateway.port("web") + "/over-tls")).timeout(Duration.ofSeconds(5))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("client: CN=client", "path: /over-tls");
        assertThat(secure.serverNames()).contains("a.test");
    }

    /** The certificate the gateway's listener {@code secure} presents to a client sending SNI {@code serverName}. */
    private X509Certificate certificateFor(String serverName) throws Exception {
        SSLSocket socket = (SSLSocket) TestPki.clientContext("ca", null).getSocketFactory()
                .createSocket("127.0.0.1", bed.gateway.port("secure"));
        try (socket) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setServerNames(List.of(new SNIHostName(serverName)));
            socket.setSSLParameters(parameters);
            socket.setSoTimeout(5000);
            socket.startHandshake();
            OutputStream out = socket.getOutputStream();
            out.write(("GET /sni HTTP/1.1\r\nHost: " + serverName + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String status = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            assertThat(status).isEqualTo("HTTP/1.1 200 OK");
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }

    private static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(TestPki.clientContext("ca", null))
                .connectTimeout(Duration.ofSeconds(2)).build();
    }

    private HttpResponse<String> get(HttpClient client, String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + bed.gateway.port("secure") + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The certificate a new connection is presented, or null when the request failed. */
    private X509Certificate newPeer() {
        try {
            return peer(get(client(), "/x"));
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }

    private static X509Certificate peer(HttpResponse<?> response) throws SSLPeerUnverifiedException {
        return (X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0];
    }
}
