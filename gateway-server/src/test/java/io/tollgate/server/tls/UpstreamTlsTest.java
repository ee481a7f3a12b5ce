package io.tollgate.server.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.metrics.MetricNames;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.testing.TestPki;
import io.tollgate.server.testing.TlsUpstream;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Clusters whose hosts speak TLS, against a real Netty TLS server presenting the test CA's
 * certificate for b.test and *.b.test: verification accepts it and refuses it under another CA or
 * another name, the SNI and the client certificate reach the server, an h2 cluster negotiates h2
 * by ALPN, and health checks of a TLS cluster go over TLS. (A name without a dot, like localhost,
 * is never sent as SNI by TLS clients, hence api.b.test.)
 */
class UpstreamTlsTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: tcp
                network_filters: [ { name: tcp_proxy, cluster: verified, splice: true } ]
              - name: tcp-wrong-ca
                network_filters: [ { name: tcp_proxy, cluster: wrong-ca } ]
              - name: http
                protocols: [http1]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - { match: { prefix: /verified }, route: { cluster: verified, timeout: 5s } }
                        - { match: { prefix: /h2 }, route: { cluster: h2, timeout: 5s } }
                        - { match: { prefix: /wrong-ca }, route: { cluster: wrong-ca, timeout: 5s } }
                        - { match: { prefix: /wrong-name }, route: { cluster: wrong-name, timeout: 5s } }
                        - { match: { prefix: /insecure }, route: { cluster: insecure, timeout: 5s } }
                        - { match: { prefix: /client }, route: { cluster: client, timeout: 5s } }
                        - { match: { prefix: /plaintext }, route: { cluster: plaintext, timeout: 5s } }
            clusters:
              - name: verified
                tls: { sni: api.b.test, ca_file: ${CA} }
                endpoints: [{ address: 127.0.0.1, port: ${PORT} }]
              - name: h2
                protocol: h2
                tls: { sni: api.b.test, ca_file: ${CA} }
                endpoints: [{ address: 127.0.0.1, port: ${PORT} }]
              - name: wrong-ca
                tls: { sni: api.b.test, ca_file: ${OTHER_CA} }
                endpoints: [{ address: 127.0.0.1, port: ${PORT} }]
              - name: wrong-name
                tls: { sni: a.test, ca_file: ${CA} }
                endpoints: [{ address: 127.0.0.1, port: ${PORT} }]
              - name: insecure
                tls: { insecure_skip_verify: true }
                endpoints: [{ address: 127.0.0.1, port: ${PORT} }]
              - name: client
                tls: { sni: api.b.test, ca_file: ${CA}, cert_chain_file: ${CLIENT_CERT}, private_key_file: ${CLIENT_KEY} }
                endpoints: [{ address: 127.0.0.1, port: ${PORT} }]
              - name: plaintext
                endpoints: [{ address: 127.0.0.1, port: ${PORT} }]
              - name: checked
                tls: { sni: api.b.test, ca_file: ${CA} }
                health_check: { type: http, interval: 50ms, timeout: 1s, unhealthy_threshold: 2, http: { path: /health } }
                endpoints: [{ address: 127.0.0.1, port: ${PORT} }]
              - name: checked-wrong-ca
                tls: { sni: api.b.test, ca_file: ${OTHER_CA} }
                health_check: { type: http, interval: 50ms, timeout: 1s, unhealthy_threshold: 2, http: { path: /health } }
                endpoints: [{ address: 127.0.0.1, port: ${PORT} }]
            """;
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private static TlsUpstream upstream;
    private static TestGateway gateway;
    private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws Exception {
        upstream = new TlsUpstream("b.test", true);
        gateway = TestGateway.start(CONFIG, Map.of("PORT", upstream.port(), "CA", TestPki.cert("ca"),
                "OTHER_CA", TestPki.cert("other-ca"), "CLIENT_CERT", TestPki.cert("client"),
                "CLIENT_KEY", TestPki.key("client")));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void verifiedClusterReachesTheServerWithItsSniOverHttp1() throws Exception {
        HttpResponse<String> response = get("/verified");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("alpn: http/1.1", "client: none", "path: /verified");
        assertThat(upstream.serverNames()).contains("api.b.test");
    }

    @Test
    void h2ClusterNegotiatesH2ByAlpn() throws Exception {
        HttpResponse<String> response = get("/h2");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("alpn: h2", "path: /h2");
    }

    @Test
    void certificateOfAnotherCaIsRefusedAndCountedAsAConnectFailure() throws Exception {
        double before = gateway.count(MetricNames.UPSTREAM_CX_CONNECT_FAIL, MetricNames.TAG_CLUSTER, "wrong-ca");

        assertThat(get("/wrong-ca").statusCode()).isEqualTo(503);
        assertThat(gateway.count(MetricNames.UPSTREAM_CX_CONNECT_FAIL, MetricNames.TAG_CLUSTER, "wrong-ca"))
                .isGreaterThan(before);
    }

    @Test
    void certificateForAnotherNameIsRefused() throws Exception {
        assertThat(get("/wrong-name").statusCode()).isEqualTo(503);
        assertThat(upstream.serverNames()).contains("a.test");
    }

    @Test
    void insecureClusterAcceptsAnyCertificateAndSendsNoSniForAnAddress() throws Exception {
        HttpResponse<String> response = get("/insecure");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(upstream.serverNames()).contains("<none>");
    }

    @Test
    void clientCertificateIsPresentedToTheServer() throws Exception {
        HttpResponse<String> response = get("/client");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("client: CN=client");
    }

    @Test
    void cleartextClusterToATlsServerFails() throws Exception {
        assertThat(get("/plaintext").statusCode()).isEqualTo(502);
    }

    @Test
    void healthChecksOfATlsClusterGoOverTls() throws Exception {
        Await.until("checks of the verified cluster passed", LIMIT,
                () -> gateway.count(MetricNames.UPSTREAM_HEALTH_CHECK_ATTEMPT, MetricNames.TAG_CLUSTER, "checked") >= 3);
        assertThat(gateway.count(MetricNames.UPSTREAM_HEALTH_CHECK_FAILURE, MetricNames.TAG_CLUSTER, "checked")).isZero();
        assertThat(gateway.host("checked", upstream.port()).healthy()).isTrue();

        Await.until("the host behind the wrong CA is unhealthy", LIMIT,
                () -> !gateway.host("checked-wrong-ca", upstream.port()).healthy());
    }

    @Test
    void tcpProxyToATlsClusterOriginatesTlsWithItsSniAndCertificateChecks() throws Exception {
        String request = "GET /over-tcp HTTP/1.1\r\nHost: b.test\r\nConnection: close\r\n\r\n";
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            client.setSoTimeout(10_000);
            client.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            String response = readUntil(client, "path: /over-tcp\n");

            assertThat(response).startsWith("HTTP/1.1 200").contains("alpn: http/1.1", "path: /over-tcp");
        }
        assertThat(upstream.serverNames()).contains("api.b.test");

        double failedBefore = gateway.count(MetricNames.UPSTREAM_CX_CONNECT_FAIL, "cluster", "wrong-ca");
        try (Socket refused = new Socket("127.0.0.1", gateway.port("tcp-wrong-ca"))) {
            refused.setSoTimeout(10_000);
            refused.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            assertThat(closedWithoutAnswer(refused)).isTrue();
        }
        assertThat(gateway.count(MetricNames.UPSTREAM_CX_CONNECT_FAIL, "cluster", "wrong-ca")).isEqualTo(failedBefore + 1);
    }

    /** Whether the gateway closed {@code socket} (an end of stream, or a reset since our request was left unread). */
    private static boolean closedWithoutAnswer(Socket socket) {
        try {
            return socket.getInputStream().read() == -1;
        } catch (IOException reset) {
            return reset.getMessage().contains("reset");
        }
    }

    /** What the server sent until {@code end} (the test server keeps its connections open). */
    private static String readUntil(Socket socket, String end) throws IOException {
        StringBuilder read = new StringBuilder();
        byte[] buffer = new byte[4096];
        int n;
        while (read.indexOf(end) < 0 && (n = socket.getInputStream().read(buffer)) >= 0) {
            read.append(new String(buffer, 0, n, StandardCharsets.US_ASCII));
        }
        return read.toString();
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(gateway.uri("http", path)).timeout(LIMIT).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
