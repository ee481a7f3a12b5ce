package io.tollgate.server.proxyprotocol;

import static io.tollgate.server.proxyprotocol.ProxyHeaders.concat;
import static io.tollgate.server.proxyprotocol.ProxyHeaders.tlv;
import static io.tollgate.server.proxyprotocol.ProxyHeaders.v1;
import static io.tollgate.server.proxyprotocol.ProxyHeaders.v2;
import static io.tollgate.server.proxyprotocol.ProxyHeaders.v2Tcp4;
import static io.tollgate.server.proxyprotocol.ProxyHeaders.v2Tcp6;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.LogLines;
import io.tollgate.server.testing.ProxyHeaderRelay;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestCertificate;
import io.tollgate.server.testing.TestGateway;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A listener's {@code proxy_protocol} over real sockets, with headers built by hand: the address a
 * v1 or v2 header carries is the client's in {@code x-forwarded-for} at the upstream, in the access
 * log, the trace span and an RBAC decision, over HTTP/1.1, h2c and TLS; {@code LOCAL} and {@code UNKNOWN} leave
 * the peer the client; malformed, truncated, slow and missing headers and untrusted sources are
 * refused and counted, each next to the legal sequence that resembles it.
 */
class ProxyProtocolListenerTest {

    private static final String ROUTES = "{ virtual_hosts: [ { name: all, domains: [\"*\"], routes: [ { match: { prefix: / },"
            + " route: { cluster: echo } } ] } ] }";
    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: required
                proxy_protocol: { mode: required, trusted_sources: [127.0.0.1/32], timeout: 500ms }
                access_log: { path: "${LOG}", format: "%DOWNSTREAM_REMOTE_ADDRESS% %PROTOCOL% %RESPONSE_CODE% %REQ(:path)%" }
                route_config: ${ROUTES}
              - name: optional
                protocols: [http1, h2c]
                proxy_protocol: { mode: optional, trusted_sources: [127.0.0.1/32] }
                filters: [ { name: trace, export: log } ]
                route_config: ${ROUTES}
              - name: rbac
                proxy_protocol: { mode: required, trusted_sources: [127.0.0.1] }
                filters:
                  - name: rbac
                    policies: [ { name: documentation-net, permissions: [ { any: true } ], principals: [ { source_ip: [192.0.2.0/24] } ] } ]
                route_config: ${ROUTES}
              - name: tls
                proxy_protocol: { mode: required, trusted_sources: [127.0.0.1/32] }
                ${TLS}
                route_config: ${ROUTES}
            clusters:
              - name: echo
                endpoints: [ { address: 127.0.0.1, port: ${ECHO} } ]
            """;
    private static final int[] CLIENT = {192, 0, 2, 7};
    private static final int[] GATEWAY = {198, 51, 100, 1};
    private static final byte[] GET = "GET /x HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    static Path dir;
    private static final StartedResources started = new StartedResources();
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        HttpUpstream echo = started.add(new HttpUpstream("echo"));
        gateway = started.add(TestGateway.start(CONFIG, Map.of("LOG", dir.resolve("access.log"), "ROUTES", ROUTES,
                "ECHO", echo.port(), "TLS", TestCertificate.tlsBlock(""))));
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void v1Tcp4AddressIsTheClientInForwardedForAndTheAccessLog() throws Exception {
        try (RawHttp client = new RawHttp(gateway.port("required"))) {
            RawHttp.Response response = client.send(concat(v1("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443"),
                    "GET /v1-tcp4 HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII))).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body()).contains("h-x-forwarded-for: 192.0.2.7\n");
            assertThat(client.send(GET).read().body()).as("the next request of the connection")
                    .contains("h-x-forwarded-for: 192.0.2.7\n");
        }
        assertThat(LogLines.await(dir.resolve("access.log"), line -> line.endsWith(" /v1-tcp4")))
                .isEqualTo("/192.0.2.7:56324 HTTP/1.1 200 /v1-tcp4");
        assertThat(count("v1")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void v1Tcp6AndUnknown() throws Exception {
        assertThat(forwardedFor("required", v1("PROXY TCP6 2001:db8::7 2001:db8::1 40000 80")))
                .isEqualTo("2001:db8:0:0:0:0:0:7");
        double unknown = count("unknown");
        assertThat(forwardedFor("required", v1("PROXY UNKNOWN"))).isEqualTo("127.0.0.1");
        assertThat(count("unknown")).isEqualTo(unknown + 1);
    }

    @Test
    void v2Tcp4WithFieldsSentByteByByteAndTcp6() throws Exception {
        byte[] header = ProxyHeaders.withCrc(v2Tcp4(CLIENT, 56324, GATEWAY, 443,
                tlv(ProxyTlv.AUTHORITY, "api.example.com".getBytes(StandardCharsets.US_ASCII)),
                tlv(ProxyTlv.CRC32C, new byte[4])));
        try (RawHttp client = new RawHttp(gateway.port("required"))) {
            for (byte b : header) {
                client.send(new byte[] {b});
            }
            assertThat(client.send(GET).read().body()).contains("h-x-forwarded-for: 192.0.2.7\n");
        }
        byte[] v6 = InetAddress.getByName("2001:db8::9").getAddress();
        assertThat(forwardedFor("required", v2Tcp6(v6, 1, InetAddress.getByName("2001:db8::1").getAddress(), 80)))
                .isEqualTo("2001:db8:0:0:0:0:0:9");
    }

    @Test
    void v2LocalKeepsThePeerAsTheClient() throws Exception {
        double local = count("local");
        assertThat(forwardedFor("required", v2(0x20, 0x00, new byte[0]))).isEqualTo("127.0.0.1");
        assertThat(count("local")).isEqualTo(local + 1);
    }

    @Test
    void malformedHeadersAreRefusedAndCounted() throws Exception {
        double before = rejected("proxy_protocol_malformed");
        assertClosedAfter(concat(v1("PROXY TCP4 192.0.2.777 198.51.100.1 56324 443"), GET));
        assertClosedAfter(concat(v2(0x21, 0x11, new byte[11]), GET));
        assertClosedAfter(concat(v1("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443 extra"), GET));
        assertThat(rejected("proxy_protocol_malformed")).isEqualTo(before + 3);
    }

    @Test
    void aRequestWithoutTheRequiredHeaderIsRefused() throws Exception {
        double before = rejected("proxy_protocol_missing");
        assertClosedAfter(GET);
        assertThat(rejected("proxy_protocol_missing")).isEqualTo(before + 1);
    }

    @Test
    void aHeaderCutByTheEndOfTheConnectionIsTruncated() throws Exception {
        double before = rejected("proxy_protocol_truncated");
        try (Socket client = new Socket("127.0.0.1", gateway.port("required"))) {
            client.setSoTimeout(10_000);
            client.getOutputStream().write(v2Tcp4(CLIENT, 1, GATEWAY, 2), 0, 20);
            client.shutdownOutput();
            assertThat(client.getInputStream().read()).as("the gateway's close").isEqualTo(-1);
        }
        Await.until("a truncated header counted", Duration.ofSeconds(10),
                () -> rejected("proxy_protocol_truncated") == before + 1);
    }

    @Test
    void aHeaderNotWholeWithinTheTimeoutClosesTheConnection() throws Exception {
        double before = rejected("proxy_protocol_timeout");
        try (RawHttp client = new RawHttp(gateway.port("required"))) {
            client.send("PROXY TCP4 192.0.2.7 198.51".getBytes(StandardCharsets.US_ASCII));
            long start = System.nanoTime();
            assertThat(client.closedByServer()).isTrue();
            assertThat((System.nanoTime() - start) / 1_000_000).as("ms until the close").isGreaterThanOrEqualTo(400);
        }
        assertThat(rejected("proxy_protocol_timeout")).isEqualTo(before + 1);
    }

    @Test
    void anUntrustedSourceIsRefusedWhereTheHeaderIsRequired() throws Exception {
        double before = rejected("proxy_protocol_untrusted");
        try (RawHttp client = new RawHttp("127.0.0.2", gateway.port("required"))) {
            client.send(concat(v1("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443"), GET));
            assertThat(client.closedByServer()).isTrue();
        }
        assertThat(rejected("proxy_protocol_untrusted")).isEqualTo(before + 1);
    }

    @Test
    void optionalHeaderFromATrustedSourceOrNoneAndNoHeaderReadFromAnUntrustedOne() throws Exception {
        assertThat(forwardedFor("optional", v1("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443"))).isEqualTo("192.0.2.7");
        double absent = count("absent");
        try (RawHttp client = new RawHttp(gateway.port("optional"))) {
            assertThat(client.send(GET).read().body()).contains("h-x-forwarded-for: 127.0.0.1\n");
        }
        assertThat(count("absent")).isEqualTo(absent + 1);

        double untrusted = count("untrusted");
        try (RawHttp client = new RawHttp("127.0.0.2", gateway.port("optional"))) {
            assertThat(client.send(GET).read().body()).contains("h-x-forwarded-for: 127.0.0.2\n");
        }
        try (RawHttp spoofing = new RawHttp("127.0.0.2", gateway.port("optional"))) {
            RawHttp.Response response = spoofing.send(concat(v1("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443"), GET))
                    .read();
            assertThat(response.status()).as("a header from an untrusted source is the protocol's bytes").isEqualTo(400);
        }
        assertThat(count("untrusted")).isEqualTo(untrusted + 2);
    }

    @Test
    void theTraceSpanNamesTheCarriedAddressAsItsPeer() throws Exception {
        ListAppender<ILoggingEvent> spans = new ListAppender<>();
        spans.start();
        Logger log = (Logger) LoggerFactory.getLogger("io.tollgate.filters.trace.spans");
        log.addAppender(spans);
        try {
            assertThat(forwardedFor("optional", v1("PROXY TCP4 192.0.2.8 198.51.100.1 56324 443"))).isEqualTo("192.0.2.8");
            Await.until("the exported span", Duration.ofSeconds(5),
                    () -> spans.list.stream().anyMatch(e -> e.getFormattedMessage().endsWith(" peer=192.0.2.8")));
        } finally {
            log.detachAppender(spans);
        }
    }

    @Test
    void rbacDecidesOnTheCarriedAddress() throws Exception {
        try (RawHttp allowed = new RawHttp(gateway.port("rbac"));
                RawHttp denied = new RawHttp(gateway.port("rbac"))) {
            assertThat(allowed.send(concat(v1("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443"), GET)).read().status())
                    .isEqualTo(200);
            assertThat(denied.send(concat(v1("PROXY TCP4 203.0.113.7 198.51.100.1 56324 443"), GET)).read().status())
                    .isEqualTo(403);
        }
    }

    @Test
    void h2cAndTlsClientsBehindABalancer() throws Exception {
        byte[] header = v2Tcp4(CLIENT, 56324, GATEWAY, 443);
        try (ProxyHeaderRelay h2c = new ProxyHeaderRelay(gateway.port("optional"), header);
                ProxyHeaderRelay tls = new ProxyHeaderRelay(gateway.port("tls"), header)) {
            HttpClient http2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
            HttpResponse<String> upgraded = http2.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + h2c.port() + "/h2c")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(upgraded.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(upgraded.body()).contains("h-x-forwarded-for: 192.0.2.7\n");

            HttpClient https = HttpClient.newBuilder().sslContext(TestCertificate.clientContext())
                    .version(HttpClient.Version.HTTP_1_1).build();
            HttpResponse<String> secured = https.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + tls.port() + "/tls")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(secured.statusCode()).isEqualTo(200);
            assertThat(secured.body()).contains("h-x-forwarded-for: 192.0.2.7\n");
        }
    }

    private static String forwardedFor(String listener, byte[] header) throws Exception {
        try (RawHttp client = new RawHttp(gateway.port(listener))) {
            RawHttp.Response response = client.send(concat(header, GET)).read();
            assertThat(response.status()).isEqualTo(200);
            for (String line : response.body().split("\n")) {
                if (line.startsWith("h-x-forwarded-for: ")) {
                    return line.substring("h-x-forwarded-for: ".length());
                }
            }
            throw new AssertionError("no x-forwarded-for at the upstream: " + response.body());
        }
    }

    private static void assertClosedAfter(byte[] bytes) throws Exception {
        try (RawHttp client = new RawHttp(gateway.port("required"))) {
            client.send(bytes);
            assertThat(client.closedByServer()).as("closed without an answer").isTrue();
        }
    }

    private static double count(String result) {
        return gateway.count("tollgate.downstream.cx.proxy_protocol", "result", result);
    }

    private static double rejected(String reason) {
        return gateway.count("tollgate.downstream.cx.rejected", "reason", reason);
    }
}
