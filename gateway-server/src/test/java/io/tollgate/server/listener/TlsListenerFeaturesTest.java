package io.tollgate.server.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.metrics.MetricNames;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.testing.TestPki;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TLS listener's certificates chosen by SNI, mutual TLS (required with a SAN allow-list, and
 * optional), the client's verified identity in the access log, and certificates reloaded from
 * their files while an open connection carries on; with the JDK's TLS client.
 */
class TlsListenerFeaturesTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: sni
                protocols: [http1, h2c]
                tls:
                  cert_chain_file: ${LOCALHOST_CERT}
                  private_key_file: ${LOCALHOST_KEY}
                  sni_certificates:
                    - { server_names: [a.test], cert_chain_file: ${A_CERT}, private_key_file: ${A_KEY} }
                    - { server_names: ["*.b.test", b.test], cert_chain_file: ${B_CERT}, private_key_file: ${B_KEY} }
                route_config: ${ROUTES}
              - name: mtls
                protocols: [http1]
                access_log: { path: "${LOG}" }
                tls:
                  cert_chain_file: ${LOCALHOST_CERT}
                  private_key_file: ${LOCALHOST_KEY}
                  client_auth: { mode: required, ca_file: ${CA}, allowed_sans: ["spiffe://tollgate/client"] }
                route_config: ${ROUTES}
              - name: optional
                protocols: [http1]
                tls:
                  cert_chain_file: ${LOCALHOST_CERT}
                  private_key_file: ${LOCALHOST_KEY}
                  client_auth: { mode: optional, ca_file: ${CA} }
                route_config: ${ROUTES}
              - name: reloading
                protocols: [http1]
                tls: { cert_chain_file: ${RELOAD_CERT}, private_key_file: ${RELOAD_KEY}, reload_interval: 100ms }
                route_config: ${ROUTES}
            clusters:
              - name: unused
                endpoints: [{ address: 127.0.0.1, port: 9 }]
            """;
    private static final String ROUTES = "{ virtual_hosts: [ { name: all, domains: ['*'], routes: ["
            + " { match: { prefix: / }, direct_response: { status: 200, body: served } } ] } ] }";
    private static final Duration LIMIT = Duration.ofSeconds(10);

    @TempDir
    static Path dir;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        Files.copy(TestPki.cert("localhost"), dir.resolve("server.crt"));
        Files.copy(TestPki.key("localhost"), dir.resolve("server.key"));
        gateway = TestGateway.start(CONFIG, Map.ofEntries(Map.entry("ROUTES", ROUTES),
                Map.entry("LOCALHOST_CERT", TestPki.cert("localhost")), Map.entry("LOCALHOST_KEY", TestPki.key("localhost")),
                Map.entry("A_CERT", TestPki.cert("a.test")), Map.entry("A_KEY", TestPki.key("a.test")),
                Map.entry("B_CERT", TestPki.cert("b.test")), Map.entry("B_KEY", TestPki.key("b.test")),
                Map.entry("CA", TestPki.cert("ca")), Map.entry("LOG", dir.resolve("access.log")),
                Map.entry("RELOAD_CERT", dir.resolve("server.crt")), Map.entry("RELOAD_KEY", dir.resolve("server.key"))));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void certificateIsChosenBySniWithTheDefaultForUnknownOrMissingNames() throws Exception {
        assertThat(presented("sni", "a.test")).isEqualTo("CN=a.test");
        assertThat(presented("sni", "b.test")).isEqualTo("CN=b.test");
        assertThat(presented("sni", "api.b.test")).isEqualTo("CN=b.test");
        assertThat(presented("sni", "c.test")).isEqualTo("CN=localhost");
        assertThat(presented("sni", null)).isEqualTo("CN=localhost");
    }

    @Test
    void sniListenerStillNegotiatesH2ByAlpn() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .sslContext(TestPki.clientContext("ca", null)).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                java.net.URI.create("https://localhost:" + gateway.port("sni") + "/h2")).timeout(LIMIT).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.body()).isEqualTo("served");
    }

    @Test
    void allowedClientCertificateIsServedAndItsIdentityLogged() throws Exception {
        assertThat(request("mtls", TestPki.clientContext("ca", "client"), "/with-identity")).startsWith("HTTP/1.1 200");

        Path log = dir.resolve("access.log");
        Await.until("the access log line", LIMIT, () -> read(log).contains("/with-identity"));
        String line = Files.readAllLines(log).stream().filter(l -> l.contains("/with-identity")).findFirst().orElseThrow();
        assertThat(line).endsWith(" spiffe://tollgate/client");
    }

    @Test
    void clientsWithoutAnAcceptableCertificateAreRefusedAndCounted() throws Exception {
        double failed = errors("mtls", TlsProtocolSelector.HANDSHAKE_FAILED);
        double refused = errors("mtls", TlsProtocolSelector.CLIENT_CERTIFICATE_REFUSED);

        assertThat(request("mtls", TestPki.clientContext("ca", null), "/none")).doesNotContain("200");
        assertThat(request("mtls", TestPki.clientContext("ca", "other-client"), "/other-ca")).doesNotContain("200");
        assertThat(request("mtls", TestPki.clientContext("ca", "expired"), "/expired")).doesNotContain("200");
        assertThat(request("mtls", TestPki.clientContext("ca", "stranger"), "/stranger")).doesNotContain("200");

        Await.until("three handshakes refused", LIMIT, () -> errors("mtls", TlsProtocolSelector.HANDSHAKE_FAILED) == failed + 3);
        Await.until("one SAN refused", LIMIT,
                () -> errors("mtls", TlsProtocolSelector.CLIENT_CERTIFICATE_REFUSED) == refused + 1);
    }

    @Test
    void optionalClientAuthenticationServesClientsWithAndWithoutCertificates() throws Exception {
        assertThat(request("optional", TestPki.clientContext("ca", null), "/anonymous")).startsWith("HTTP/1.1 200");
        assertThat(request("optional", TestPki.clientContext("ca", "stranger"), "/stranger")).startsWith("HTTP/1.1 200");
        assertThat(request("optional", TestPki.clientContext("ca", "other-client"), "/other-ca")).doesNotContain("200");
    }

    @Test
    void replacedCertificateFilesServeNewConnectionsWhileAnOpenOneCarriesOn() throws Exception {
        X509Certificate before = (X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
                .generateCertificate(Files.newInputStream(TestPki.cert("localhost")));
        X509Certificate after = (X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
                .generateCertificate(Files.newInputStream(TestPki.cert("localhost-next")));
        try (SSLSocket old = connect("reloading", TestPki.clientContext("ca", null), null)) {
            assertThat(serial(old)).isEqualTo(before.getSerialNumber());

            Files.copy(TestPki.key("localhost-next"), dir.resolve("server.key"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(TestPki.cert("localhost-next"), dir.resolve("server.crt"), StandardCopyOption.REPLACE_EXISTING);
            Await.until("a new connection gets the new certificate", LIMIT, () -> {
                try (SSLSocket fresh = connect("reloading", TestPki.clientContext("ca", null), null)) {
                    return serial(fresh).equals(after.getSerialNumber());
                } catch (IOException e) {
                    return false;
                }
            });

            assertThat(exchange(old, "/old-connection")).startsWith("HTTP/1.1 200");
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static java.math.BigInteger serial(SSLSocket socket) throws IOException {
        return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
    }

    private static String presented(String listener, String serverName) throws IOException {
        try (SSLSocket socket = connect(listener, TestPki.clientContext("ca", null), serverName)) {
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
        }
    }

    private static SSLSocket connect(String listener, SSLContext context, String serverName) throws IOException {
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", gateway.port(listener));
        socket.setSoTimeout(5_000);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"http/1.1"});
        if (serverName != null) {
            parameters.setServerNames(List.of(new SNIHostName(serverName)));
        }
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    /** Sends one request and reads the answer; a refused handshake or reset reads as an empty answer. */
    private static String request(String listener, SSLContext context, String path) {
        try (SSLSocket socket = connect(listener, context, null)) {
            return exchange(socket, path);
        } catch (IOException refused) {
            return "";
        }
    }

    private static String exchange(SSLSocket socket, String path) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return TlsListenerTest.readToEnd(socket.getInputStream());
    }

    private static double errors(String listener, String reason) {
        return gateway.count(MetricNames.DOWNSTREAM_RQ_ERROR, MetricNames.TAG_LISTENER, listener,
                MetricNames.TAG_REASON, reason);
    }
}
