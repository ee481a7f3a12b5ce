package io.tollgate.server.proxyprotocol;

import static io.tollgate.server.proxyprotocol.ProxyHeaders.concat;
import static io.tollgate.server.proxyprotocol.ProxyHeaders.v1;
import static io.tollgate.server.proxyprotocol.ProxyHeaders.v2Tcp4;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.LogLines;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestCertificate;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TCP proxy behind a balancer and in front of hosts that expect a PROXY protocol header: the
 * listener reads the client's header (the {@code client_ip} filter and the access log see the
 * address it carries) and a cluster with {@code proxy_protocol} sends the hosts one carrying it,
 * byte for byte as the specification writes it, and before TLS: a second gateway reading v1 ahead
 * of its TLS handshake tells its upstream the first client's address.
 */
class UpstreamProxyProtocolTest {

    private static final int[] CLIENT = {192, 0, 2, 7};
    private static final int[] GATEWAY = {198, 51, 100, 1};
    private static final byte[] HEADER = v1("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443");
    private static final byte[] HELLO = "hello".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    static Path dir;
    private static final StartedResources started = new StartedResources();
    private static final BlockingQueue<byte[]> received = new ArrayBlockingQueue<>(4);
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        int expected = v2Tcp4(CLIENT, 56324, GATEWAY, 443).length + HELLO.length;
        RawUpstream reader = started.add(new RawUpstream(socket -> {
            received.add(socket.getInputStream().readNBytes(expected));
            socket.getOutputStream().write("read".getBytes(StandardCharsets.US_ASCII));
        }));
        HttpUpstream echo = started.add(new HttpUpstream("echo"));
        TestGateway behind = started.add(TestGateway.start("""
                listeners:
                  - name: tls
                    proxy_protocol: { mode: required, trusted_sources: [127.0.0.1/32] }
                    ${TLS}
                    route_config: { virtual_hosts: [ { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: echo } } ] } ] }
                clusters:
                  - name: echo
                    endpoints: [ { address: 127.0.0.1, port: ${ECHO} } ]
                """, Map.of("TLS", TestCertificate.tlsBlock(""), "ECHO", echo.port())));
        gateway = started.add(TestGateway.start("""
                listeners:
                  - name: tcp
                    proxy_protocol: { mode: required, trusted_sources: [127.0.0.1/32] }
                    access_log: { path: "${LOG}", format: "%DOWNSTREAM_REMOTE_ADDRESS% %PROTOCOL% %BYTES_RECEIVED%" }
                    network_filters:
                      - { name: client_ip, allow: [192.0.2.0/24] }
                      - { name: tcp_proxy, cluster: reader }
                  - name: chain
                    proxy_protocol: { mode: required, trusted_sources: [127.0.0.1/32] }
                    network_filters: [ { name: tcp_proxy, cluster: behind } ]
                  - name: to_nowhere
                    network_filters: [ { name: tcp_proxy, cluster: down } ]
                clusters:
                  - name: reader
                    proxy_protocol: v2
                    endpoints: [ { address: 127.0.0.1, port: ${READER} } ]
                  - name: behind
                    proxy_protocol: v1
                    tls: { insecure_skip_verify: true }
                    endpoints: [ { address: 127.0.0.1, port: ${BEHIND} } ]
                  - name: down
                    proxy_protocol: v2
                    connect_timeout: 2s
                    endpoints: [ { address: 127.0.0.1, port: ${DOWN} } ]
                """, Map.of("LOG", dir.resolve("access.log"), "READER", reader.port(), "BEHIND", behind.port("tls"),
                "DOWN", FreePort.pick())));
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void theHostReadsAV2HeaderCarryingTheClientThenTheClientsBytes() throws Exception {
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            client.setSoTimeout(10_000);
            client.getOutputStream().write(concat(HEADER, HELLO));
            assertThat(new String(client.getInputStream().readNBytes(4), StandardCharsets.US_ASCII)).isEqualTo("read");
        }
        byte[] bytes = received.poll(10, TimeUnit.SECONDS);
        assertThat(bytes).as("what the host read").isEqualTo(concat(v2Tcp4(CLIENT, 56324, GATEWAY, 443), HELLO));
        assertThat(LogLines.await(dir.resolve("access.log"), line -> line.startsWith("/192.0.2.7:56324 ")))
                .isEqualTo("/192.0.2.7:56324 TCP 5");
    }

    @Test
    void aHostThatRefusesTheConnectGetsNoHeaderAndTheClientIsClosed() throws Exception {
        double before = gateway.count("tollgate.tcp.cx.no_upstream", "listener", "to_nowhere", "reason", "connect_failure");
        try (Socket client = new Socket("127.0.0.1", gateway.port("to_nowhere"))) {
            client.setSoTimeout(10_000);
            client.getOutputStream().write(HELLO);
            assertThat(closed(client)).as("closed once the connect failed").isTrue();
        }
        Await.until("the connect failure counted", Duration.ofSeconds(10), () -> gateway.count(
                "tollgate.tcp.cx.no_upstream", "listener", "to_nowhere", "reason", "connect_failure") == before + 1);
    }

    /** Whether the gateway closed {@code client}: a FIN, or a reset when what the client sent was left unread. */
    private static boolean closed(Socket client) throws IOException {
        try {
            return client.getInputStream().read() < 0;
        } catch (SocketException reset) {
            return true;
        }
    }

    @Test
    void clientIpJudgesTheCarriedAddress() throws Exception {
        double before = gateway.count("tollgate.downstream.cx.rejected", "listener", "tcp", "reason", "client_ip");
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            client.setSoTimeout(10_000);
            client.getOutputStream().write(concat(v1("PROXY TCP4 203.0.113.9 198.51.100.1 56324 443"), HELLO));
            InputStream in = client.getInputStream();
            assertThat(in.read()).as("closed by client_ip, though the peer 127.0.0.1 is not refused").isEqualTo(-1);
        }
        assertThat(gateway.count("tollgate.downstream.cx.rejected", "listener", "tcp", "reason", "client_ip"))
                .isEqualTo(before + 1);
    }

    @Test
    void aV1HeaderGoesAheadOfTheTlsHandshakeToAGatewayThatReadsIt() throws Exception {
        try (RawHttp client = new RawHttp(gateway.port("chain"))) {
            RawHttp.Response response = client.send(concat(HEADER,
                    "GET /chain HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII))).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body()).contains("h-x-forwarded-for: 192.0.2.7\n");
        }
    }
}
