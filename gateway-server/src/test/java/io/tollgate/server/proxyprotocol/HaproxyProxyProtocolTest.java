package io.tollgate.server.proxyprotocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.LogLines;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PROXY protocol against HAProxy (Debian's {@code haproxy}; skipped when it is not installed):
 * HAProxy in front of the gateway with {@code send-proxy} and {@code send-proxy-v2}, the gateway's
 * access log showing the client's own port (not HAProxy's); and HAProxy behind the TCP proxy with
 * {@code accept-proxy}, whose {@code option forwardfor} tells its upstream the address the gateway's
 * v1 or v2 header carried.
 */
class HaproxyProxyProtocolTest {

    private static final String HAPROXY = "/usr/sbin/haproxy";
    private static final byte[] GET = "GET /via-haproxy HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    static Path dir;
    private static final StartedResources started = new StartedResources();
    private static TestGateway gateway;
    private static Process haproxy;
    private static final int SEND_V1 = FreePort.pick();
    private static final int SEND_V2 = FreePort.pick();
    private static final int ACCEPT = FreePort.pick();

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(HAPROXY)),
                "haproxy is not installed (apt-get install haproxy): the HAProxy PROXY protocol tests are skipped");
        HttpUpstream echo = started.add(new HttpUpstream("echo"));
        gateway = started.add(TestGateway.start("""
                listeners:
                  - name: http
                    proxy_protocol: { mode: required, trusted_sources: [127.0.0.1/32] }
                    access_log: { path: "${LOG}", format: "%DOWNSTREAM_REMOTE_ADDRESS% %RESPONSE_CODE%" }
                    route_config: { virtual_hosts: [ { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: echo } } ] } ] }
                  - name: tcp_v1
                    proxy_protocol: { mode: required, trusted_sources: [127.0.0.1/32] }
                    network_filters: [ { name: tcp_proxy, cluster: haproxy_v1 } ]
                  - name: tcp_v2
                    proxy_protocol: { mode: required, trusted_sources: [127.0.0.1/32] }
                    network_filters: [ { name: tcp_proxy, cluster: haproxy_v2 } ]
                clusters:
                  - name: echo
                    endpoints: [ { address: 127.0.0.1, port: ${ECHO} } ]
                  - name: haproxy_v1
                    proxy_protocol: v1
                    endpoints: [ { address: 127.0.0.1, port: ${ACCEPT} } ]
                  - name: haproxy_v2
                    proxy_protocol: v2
                    endpoints: [ { address: 127.0.0.1, port: ${ACCEPT} } ]
                """, Map.of("LOG", dir.resolve("access.log"), "ECHO", echo.port(), "ACCEPT", ACCEPT)));
        Path config = dir.resolve("haproxy.cfg");
        Files.writeString(config, String.join("\n", List.of(
                "defaults",
                "  timeout connect 5s",
                "  timeout client 30s",
                "  timeout server 30s",
                "frontend send_v1",
                "  mode tcp",
                "  bind 127.0.0.1:" + SEND_V1,
                "  default_backend gateway_v1",
                "backend gateway_v1",
                "  mode tcp",
                "  server gateway 127.0.0.1:" + gateway.port("http") + " send-proxy",
                "frontend send_v2",
                "  mode tcp",
                "  bind 127.0.0.1:" + SEND_V2,
                "  default_backend gateway_v2",
                "backend gateway_v2",
                "  mode tcp",
                "  server gateway 127.0.0.1:" + gateway.port("http") + " send-proxy-v2",
                "frontend accept",
                "  mode http",
                "  bind 127.0.0.1:" + ACCEPT + " accept-proxy",
                "  option forwardfor",
                "  default_backend echo",
                "backend echo",
                "  mode http",
                "  server echo 127.0.0.1:" + echo.port(),
                "")));
        haproxy = new ProcessBuilder(HAPROXY, "-db", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("haproxy.out").toFile()).start();
        for (int port : new int[] {SEND_V1, SEND_V2, ACCEPT}) {
            Await.until("haproxy listening on " + port, Duration.ofSeconds(10), () -> accepts(port));
        }
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (haproxy != null) {
            haproxy.destroy();
            haproxy.waitFor(10, TimeUnit.SECONDS);
        }
        started.close();
    }

    @Test
    void sendProxyAndSendProxyV2TellTheGatewayTheClientsOwnPort() throws Exception {
        for (int frontend : new int[] {SEND_V1, SEND_V2}) {
            try (Socket client = new Socket("127.0.0.1", frontend)) {
                client.setSoTimeout(10_000);
                client.getOutputStream().write(GET);
                String status = new String(client.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
                assertThat(status).isEqualTo("HTTP/1.1 200");
                String expected = "/127.0.0.1:" + client.getLocalPort() + " 200";
                assertThat(LogLines.await(dir.resolve("access.log"), line -> line.equals(expected))).isEqualTo(expected);
            }
        }
        // at least: the probes that waited for HAProxy to listen made it open connections with a header too
        assertThat(gateway.count("tollgate.downstream.cx.proxy_protocol", "listener", "http", "result", "v1")).isPositive();
        assertThat(gateway.count("tollgate.downstream.cx.proxy_protocol", "listener", "http", "result", "v2")).isPositive();
    }

    @Test
    void haproxyWithAcceptProxyReadsTheClientTheGatewaySends() throws Exception {
        for (String listener : List.of("tcp_v1", "tcp_v2")) {
            try (RawHttp client = new RawHttp(gateway.port(listener))) {
                client.send(ProxyHeaders.v1("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443"));
                RawHttp.Response response = client.send(GET).read();
                assertThat(response.status()).as(listener).isEqualTo(200);
                assertThat(response.body()).as(listener).contains("h-x-forwarded-for: 192.0.2.7\n");
            }
        }
    }

    private static boolean accepts(int port) {
        try (Socket probe = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }
}
