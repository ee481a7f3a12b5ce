package io.tollgate.server.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.metrics.MetricNames;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestCertificate;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Real TLS clients to listeners that terminate TLS in front of a plaintext HTTP/1.1 upstream: the
 * protocol comes from ALPN (h2 or http/1.1) or, without ALPN, from the decrypted bytes; plaintext
 * clients, silent clients and clients offering only ALPN names the listener does not serve are
 * counted and closed without harming the next connection.
 */
class TlsListenerTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: https
                protocols: [http1, h2c]
                ${TLS_SHORT_HANDSHAKE}
                route_config: ${ROUTES}
              - name: mixed
                protocols: [bolt, http1]
                ${TLS}
                route_config: ${ROUTES}
            clusters:
              - name: upstream
                endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
            """;
    private static final String ROUTES = "{ virtual_hosts: [ { name: all, domains: ['*'], routes: ["
            + " { match: { prefix: / }, route: { cluster: upstream, timeout: 10s } } ] } ] }";

    private static HttpUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstream = new HttpUpstream();
        gateway = TestGateway.start(CONFIG, Map.of("PORT", upstream.port(), "ROUTES", ROUTES,
                "TLS_SHORT_HANDSHAKE", TestCertificate.tlsBlock("handshake_timeout: 500ms"),
                "TLS", TestCertificate.tlsBlock("")));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @ParameterizedTest
    @EnumSource(HttpClient.Version.class)
    void clientGetsTheHttpVersionItAskedForByAlpn(HttpClient.Version version) throws Exception {
        HttpResponse<String> response = get(version, "https", "/alpn-" + version);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.version()).isEqualTo(version);
        assertThat(response.body()).contains("target: /alpn-" + version, "h-x-forwarded-proto: https");
    }

    @Test
    void plaintextRequestToTheTlsPortIsClosedAndCountedAndTheNextTlsClientIsServed() throws Exception {
        double before = errors("https", TlsProtocolSelector.HANDSHAKE_FAILED);
        try (Socket socket = new Socket("127.0.0.1", gateway.port("https"))) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readToEnd(socket.getInputStream())).doesNotContain("HTTP/1.1");
        }
        Await.until("the plaintext client was counted", Duration.ofSeconds(5),
                () -> errors("https", TlsProtocolSelector.HANDSHAKE_FAILED) == before + 1);

        assertThat(get(HttpClient.Version.HTTP_2, "https", "/after-plaintext").statusCode()).isEqualTo(200);
    }

    @Test
    void silentClientIsClosedAfterTheHandshakeTimeout() throws Exception {
        double before = errors("https", TlsProtocolSelector.HANDSHAKE_TIMEOUT);
        try (Socket socket = new Socket("127.0.0.1", gateway.port("https"))) {
            socket.setSoTimeout(5_000);
            long start = System.nanoTime();
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(400), Duration.ofSeconds(4));
        }
        Await.until("the silent client was counted", Duration.ofSeconds(5),
                () -> errors("https", TlsProtocolSelector.HANDSHAKE_TIMEOUT) == before + 1);
    }

    @Test
    void clientWithoutAlpnIsServedByDetectionOnTheDecryptedBytes() throws Exception {
        try (SSLSocket socket = (SSLSocket) TestCertificate.clientContext().getSocketFactory()
                .createSocket("127.0.0.1", gateway.port("mixed"))) {
            socket.setSoTimeout(5_000);
            socket.startHandshake();
            assertThat(socket.getApplicationProtocol()).isEmpty();
            OutputStream out = socket.getOutputStream();
            out.write("GET /no-alpn HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();

            assertThat(readToEnd(socket.getInputStream())).startsWith("HTTP/1.1 200").contains("target: /no-alpn");
        }
    }

    @Test
    void h2cUpgradeIsNotOfferedOverTls() throws Exception {
        try (SSLSocket socket = (SSLSocket) TestCertificate.clientContext().getSocketFactory()
                .createSocket("127.0.0.1", gateway.port("https"))) {
            socket.setSoTimeout(5_000);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"http/1.1"});
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            OutputStream out = socket.getOutputStream();
            out.write(("GET /no-upgrade HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings, close\r\n"
                    + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();

            assertThat(readToEnd(socket.getInputStream())).startsWith("HTTP/1.1 200").contains("target: /no-upgrade");
        }
    }

    @Test
    void clientOfferingOnlyUnservedAlpnNamesIsRefusedAndCounted() throws Exception {
        double before = errors("https", AlpnOfferCheck.NO_APPLICATION_PROTOCOL);
        try (SSLSocket socket = (SSLSocket) TestCertificate.clientContext().getSocketFactory()
                .createSocket("127.0.0.1", gateway.port("https"))) {
            socket.setSoTimeout(5_000);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"spdy/3.1", "h3"});
            socket.setSSLParameters(parameters);

            assertThatThrownBy(socket::startHandshake).isInstanceOf(SSLHandshakeException.class)
                    .hasMessageContaining("no_application_protocol");
        }
        assertThat(errors("https", AlpnOfferCheck.NO_APPLICATION_PROTOCOL)).isEqualTo(before + 1);
        assertThat(get(HttpClient.Version.HTTP_1_1, "https", "/after-refusal").statusCode()).isEqualTo(200);
    }

    private static HttpResponse<String> get(HttpClient.Version version, String listener, String path)
            throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(version).sslContext(TestCertificate.clientContext()).build();
        URI uri = URI.create("https://127.0.0.1:" + gateway.port(listener) + path);
        return client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static double errors(String listener, String reason) {
        return gateway.count(MetricNames.DOWNSTREAM_RQ_ERROR, MetricNames.TAG_LISTENER, listener,
                MetricNames.TAG_REASON, reason);
    }

    /** Reads until the peer closes; a reset counts as the end too. */
    static String readToEnd(InputStream in) throws IOException {
        StringBuilder text = new StringBuilder();
        byte[] chunk = new byte[4096];
        try {
            for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                text.append(new String(chunk, 0, n, StandardCharsets.ISO_8859_1));
            }
        } catch (SocketException reset) {
            return text.toString();
        }
        return text.toString();
    }
}
