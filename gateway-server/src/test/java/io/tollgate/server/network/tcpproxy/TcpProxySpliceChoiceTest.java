package io.tollgate.server.network.tcpproxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.NetworkFilterConfig;
import io.tollgate.core.config.NetworkFilterEntry;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.server.transport.Transport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * When a {@code tcp_proxy} with {@code splice: true} may splice: only on native epoll, plain TCP,
 * behind no network filter that reads the bytes; and never unless asked.
 */
class TcpProxySpliceChoiceTest {

    @Test
    void splicesOnEpollBehindAFilterThatNeedsNoBytes() {
        assertThat(proxy(listener(true), Transport.EPOLL).splice()).isTrue();
    }

    @Test
    void neverSplicesUnlessAsked() {
        assertThat(proxy(listener(false), Transport.EPOLL).splice()).isFalse();
    }

    @Test
    void neverSplicesOnNio() {
        assertThat(proxy(listener(true), Transport.NIO).splice()).isFalse();
    }

    @Test
    void neverSplicesOnATlsListener() {
        ListenerConfig plain = listener(true);
        TlsConfig tls = new TlsConfig(Path.of("cert.pem"), Path.of("key.pem"), List.of(),
                TlsConfig.DEFAULT_HANDSHAKE_TIMEOUT, List.of(), Optional.empty(), TlsConfig.DEFAULT_RELOAD_INTERVAL,
                TlsConfig.DEFAULT_SESSION_TIMEOUT);
        ListenerConfig decrypted = new ListenerConfig(plain.name(), plain.address(), plain.port(), plain.protocols(),
                plain.routeConfig(), plain.http(), plain.accessLog(), plain.protocolOptions(), plain.http2(),
                Optional.of(tls), plain.limits(), plain.filters(), plain.networkFilters());
        assertThat(proxy(decrypted, Transport.EPOLL).splice()).isFalse();
    }

    @Test
    void neverSplicesBehindAFilterThatReadsTheBytes() {
        ListenerConfig plain = listener(true);
        List<NetworkFilterEntry> filters = new ArrayList<>();
        filters.add(new NetworkFilterEntry("reads_bytes", new NetworkFilterConfig() {
        }));
        filters.addAll(plain.networkFilters());
        ListenerConfig inspected = new ListenerConfig(plain.name(), plain.address(), plain.port(), plain.protocols(),
                plain.routeConfig(), plain.http(), plain.accessLog(), plain.protocolOptions(), plain.http2(),
                plain.tls(), plain.limits(), plain.filters(), filters);
        assertThat(proxy(inspected, Transport.EPOLL).splice()).isFalse();
    }

    private static ListenerConfig listener(boolean splice) {
        return ConfigLoader.parse("""
                listeners:
                  - name: tcp
                    network_filters:
                      - { name: client_ip, allow: [10.0.0.0/8] }
                      - { name: tcp_proxy, cluster: c, splice: %s }
                clusters: [ { name: c, endpoints: [ { address: 127.0.0.1, port: 1 } ] } ]
                """.formatted(splice)).listeners().get(0);
    }

    private static TcpProxy proxy(ListenerConfig listener, Transport transport) {
        return new TcpProxy(listener, () -> null, transport, new GatewayMetrics(new SimpleMeterRegistry()), null);
    }
}
