package io.tollgate.server.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.filter.NetworkConnection;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A listener's {@code network_filters} over real sockets: a filter that holds a connection and
 * resumes it from another thread, on a {@code tcp} listener and on an HTTP one; the built-in
 * {@code client_ip}; and the configuration's rules, with path-named errors.
 */
class NetworkFiltersTest {

    private final StartedResources started = new StartedResources();

    @BeforeEach
    void forgetHeld() {
        HoldingFilterFactory.HELD.clear();
    }

    @AfterEach
    void stop() {
        started.close();
    }

    @Test
    void bytesHeldByAFilterReachTheUpstreamOnlyOnceItResumes() throws Exception {
        AtomicLong upstreamRead = new AtomicLong();
        RawUpstream echo = started.add(new RawUpstream(socket -> {
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[1024];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                upstreamRead.addAndGet(n);
                socket.getOutputStream().write(buffer, 0, n);
            }
        }));
        TestGateway gateway = started.add(TestGateway.start("""
                listeners:
                  - name: tcp
                    network_filters:
                      - { name: test_hold, hold: first_read }
                      - { name: tcp_proxy, cluster: upstream }
                clusters:
                  - name: upstream
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                """, Map.of("PORT", echo.port())));
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            client.setSoTimeout(10_000);
            client.getOutputStream().write("held".getBytes(StandardCharsets.US_ASCII));
            NetworkConnection held = HoldingFilterFactory.HELD.poll(10, TimeUnit.SECONDS);
            assertThat(held).as("the connection the filter held").isNotNull();
            client.getOutputStream().write(" then more".getBytes(StandardCharsets.US_ASCII));
            assertThat(upstreamRead.get()).as("bytes the upstream read while the filter held them").isZero();

            held.resume();
            byte[] echoed = client.getInputStream().readNBytes("held then more".length());
            assertThat(new String(echoed, StandardCharsets.US_ASCII)).isEqualTo("held then more");
        }
    }

    @Test
    void anHttpConnectionHeldAtItsOpeningIsServedOnceResumed() throws Exception {
        HttpUpstream upstream = started.add(new HttpUpstream("demo"));
        TestGateway gateway = started.add(TestGateway.start("""
                listeners:
                  - name: http
                    network_filters: [ { name: test_hold, hold: connect } ]
                    route_config:
                      virtual_hosts:
                        - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: demo } } ] }
                clusters:
                  - name: demo
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                """, Map.of("PORT", upstream.port())));
        try (RawHttp client = new RawHttp(gateway.port("http"))) {
            client.send("GET /held HTTP/1.1\r\nHost: a\r\n\r\n");
            NetworkConnection held = HoldingFilterFactory.HELD.poll(10, TimeUnit.SECONDS);
            assertThat(held).isNotNull();
            new Thread(held::resume).start();
            assertThat(client.read(false).status()).isEqualTo(200);
        }
    }

    @Test
    void clientIpClosesConnectionsFromDeniedAddressesAndCountsThem() throws Exception {
        HttpUpstream upstream = started.add(new HttpUpstream("demo"));
        TestGateway gateway = started.add(TestGateway.start("""
                listeners:
                  - name: denied
                    network_filters: [ { name: client_ip, deny: [127.0.0.0/8] } ]
                    route_config: ${ROUTES}
                  - name: allowed
                    network_filters: [ { name: client_ip, allow: [10.0.0.0/8, 127.0.0.1/32], deny: ["::1"] } ]
                    route_config: ${ROUTES}
                clusters:
                  - name: demo
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                """, Map.of("PORT", upstream.port(), "ROUTES",
                "{ virtual_hosts: [ { name: all, domains: [\"*\"], routes: [ { match: { prefix: / }, route: { cluster: demo } } ] } ] }")));
        try (Socket refused = new Socket("127.0.0.1", gateway.port("denied"))) {
            refused.setSoTimeout(10_000);
            refused.getOutputStream().write("GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readUntilClosed(refused)).isEmpty();
        }
        assertThat(gateway.count("tollgate.downstream.cx.rejected", "listener", "denied", "reason", "client_ip"))
                .isEqualTo(1);
        try (RawHttp client = new RawHttp(gateway.port("allowed"))) {
            assertThat(client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n").read(false).status()).isEqualTo(200);
        }
    }

    @Test
    void configurationErrorsNameTheField() {
        String cluster = "clusters: [ { name: c, endpoints: [ { address: 127.0.0.1, port: 1 } ] } ]\n";
        assertThatThrownBy(() -> ConfigLoader.parse("listeners: [ { name: l, network_filters: [ { name: nope } ] } ]\n" + cluster))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listeners[0].network_filters[0].name: unknown network filter 'nope'")
                .hasMessageContaining("client_ip").hasMessageContaining("tcp_proxy");
        assertThatThrownBy(() -> ConfigLoader.parse("listeners: [ { name: l, network_filters: [ "
                + "{ name: tcp_proxy, cluster: c }, { name: client_ip, deny: [10.0.0.0/8] } ] } ]\n" + cluster))
                .hasMessageContaining("listeners[0].network_filters[0]: tcp_proxy is terminal");
        assertThatThrownBy(() -> ConfigLoader.parse("listeners: [ { name: l, protocols: [http1], network_filters: [ "
                + "{ name: tcp_proxy, cluster: c } ] } ]\n" + cluster))
                .hasMessageContaining("listeners[0].protocols: [http1] (expected [tcp]");
        assertThatThrownBy(() -> ConfigLoader.parse("listeners: [ { name: l, protocols: [tcp] } ]\n" + cluster))
                .hasMessageContaining("listeners[0].protocols: [tcp] (expected no tcp");
        assertThatThrownBy(() -> ConfigLoader.parse("listeners: [ { name: l, network_filters: [ "
                + "{ name: tcp_proxy, cluster: missing } ] } ]\n" + cluster))
                .hasMessageContaining("listeners[0].network_filters[0].cluster: unknown cluster 'missing'");
        assertThatThrownBy(() -> ConfigLoader.parse("listeners: [ { name: l, network_filters: [ "
                + "{ name: tcp_proxy, cluster: c, timeout: 1s } ] } ]\n" + cluster))
                .hasMessageContaining("listeners[0].network_filters[0]").hasMessageContaining("timeout");
        assertThatThrownBy(() -> ConfigLoader.parse("listeners: [ { name: l, network_filters: [ "
                + "{ name: tcp_proxy, cluster: c, splice: auto } ] } ]\n" + cluster))
                .hasMessageContaining("listeners[0].network_filters[0].splice: must be true or false");
        assertThatThrownBy(() -> ConfigLoader.parse("listeners: [ { name: l, route_config: { virtual_hosts: [] }, "
                + "network_filters: [ { name: tcp_proxy, cluster: c } ] } ]\n" + cluster))
                .hasMessageContaining("listeners[0].route_config: does not apply to a tcp listener");
        assertThatThrownBy(() -> ConfigLoader.parse("listeners: [ { name: l, protocols: [tcp], tcp: { cluster: c }, "
                + "network_filters: [ { name: tcp_proxy, cluster: c } ] } ]\n" + cluster))
                .hasMessageContaining("listeners[0].tcp: has no settings");
        assertThatThrownBy(() -> ConfigLoader.parse("listeners: [ { name: l, route_config: { virtual_hosts: [] }, "
                + "network_filters: [ { name: client_ip, allow: [10.0.0.0/33] } ] } ]\n" + cluster))
                .hasMessageContaining("listeners[0].network_filters[0].allow[0]: '10.0.0.0/33': prefix length '33' (expected: 0..32)");
        assertThatThrownBy(() -> ConfigLoader.parse("listeners: [ { name: l, route_config: { virtual_hosts: [] }, "
                + "network_filters: [ { name: client_ip, deny: [example.com] } ] } ]\n" + cluster))
                .hasMessageContaining("listeners[0].network_filters[0].deny[0]: 'example.com' is not an IP address or range");
        assertThatThrownBy(() -> ConfigLoader.parse("listeners: [ { name: l, route_config: { virtual_hosts: [] }, "
                + "network_filters: [ { name: client_ip } ] } ]\n" + cluster))
                .hasMessageContaining("listeners[0].network_filters[0]: neither allow nor deny");
    }

    private static String readUntilClosed(Socket socket) throws IOException {
        try {
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the connection was not closed within 10 s", e);
        } catch (IOException reset) {
            return "";
        }
    }
}
