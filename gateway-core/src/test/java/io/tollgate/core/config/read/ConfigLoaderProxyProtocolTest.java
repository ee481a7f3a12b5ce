package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ProxyProtocolConfig;
import io.tollgate.core.config.UpstreamProxyProtocol;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A listener's {@code proxy_protocol} block and a cluster's {@code proxy_protocol}, read or refused with their paths. */
class ConfigLoaderProxyProtocolTest {

    private static GatewayConfig load(String listenerProxyProtocol, String clusterProxyProtocol) {
        return ConfigLoader.parse("""
                listeners:
                  - name: http
                    %s
                    route_config:
                      virtual_hosts:
                        - name: vh
                          domains: ["*"]
                          routes: [{ match: { prefix: / }, route: { cluster: backend } }]
                clusters: [{ name: backend, %s endpoints: [{ address: 127.0.0.1, port: 9000 }] }]
                """.formatted(listenerProxyProtocol, clusterProxyProtocol));
    }

    private static ProxyProtocolConfig listener(String block) {
        return load("proxy_protocol: " + block, "").listeners().get(0).proxyProtocol().orElseThrow();
    }

    @Test
    void readsModeTrustedSourcesAndTimeout() throws Exception {
        ProxyProtocolConfig required = listener("{ mode: required, trusted_sources: [10.0.0.0/8, \"2001:db8::/32\"] }");
        assertThat(required.mode()).isEqualTo(ProxyProtocolConfig.Mode.REQUIRED);
        assertThat(required.timeout()).isEqualTo(ProxyProtocolConfig.DEFAULT_TIMEOUT);
        assertThat(required.trusts(InetAddress.getByName("10.1.2.3"))).isTrue();
        assertThat(required.trusts(InetAddress.getByName("2001:db8::1"))).isTrue();
        assertThat(required.trusts(InetAddress.getByName("11.0.0.1"))).isFalse();
        assertThat(required.trusts(InetAddress.getByName("127.0.0.1"))).isFalse();

        ProxyProtocolConfig optional = listener("{ mode: optional, trusted_sources: [127.0.0.1], timeout: 2s }");
        assertThat(optional.mode()).isEqualTo(ProxyProtocolConfig.Mode.OPTIONAL);
        assertThat(optional.timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(optional.trusts(InetAddress.getByName("127.0.0.1"))).isTrue();
        assertThat(optional.trusts(InetAddress.getByName("127.0.0.2"))).isFalse();

        assertThat(load("", "").listeners().get(0).proxyProtocol()).isEmpty();
    }

    @Test
    void refusesWhatIsNotAListenersProxyProtocol() {
        assertThatThrownBy(() -> listener("{ mode: sometimes, trusted_sources: [10.0.0.0/8] }"))
                .hasMessageContaining("listeners[0].proxy_protocol.mode: 'sometimes' (expected required or optional)");
        assertThatThrownBy(() -> listener("{ mode: required, trusted_sources: [] }"))
                .hasMessageContaining("listeners[0].proxy_protocol.trusted_sources: must list");
        assertThatThrownBy(() -> listener("{ mode: required }"))
                .hasMessageContaining("listeners[0].proxy_protocol.trusted_sources");
        assertThatThrownBy(() -> listener("{ mode: required, trusted_sources: [lb.example.com] }"))
                .hasMessageContaining("listeners[0].proxy_protocol.trusted_sources[0]: 'lb.example.com'");
        assertThatThrownBy(() -> listener("{ mode: required, trusted_sources: [10.0.0.0/33] }"))
                .hasMessageContaining("prefix length");
        assertThatThrownBy(() -> listener("{ mode: required, trusted_sources: [10.0.0.0/8], timeout: 0s }"))
                .hasMessageContaining("listeners[0].proxy_protocol.timeout");
        assertThatThrownBy(() -> listener("{ mode: required, trusted_sources: [10.0.0.0/8], versions: [v1] }"))
                .hasMessageContaining("listeners[0].proxy_protocol").hasMessageContaining("versions");
    }

    @Test
    void readsAClustersVersionAndRefusesOthers() {
        assertThat(load("", "proxy_protocol: v1,").clusters().get(0).proxyProtocol()).contains(UpstreamProxyProtocol.V1);
        assertThat(load("", "proxy_protocol: v2,").clusters().get(0).proxyProtocol()).contains(UpstreamProxyProtocol.V2);
        assertThat(load("", "").clusters().get(0).proxyProtocol()).isEqualTo(Optional.empty());
        assertThatThrownBy(() -> load("", "proxy_protocol: v3,"))
                .hasMessageContaining("clusters[0].proxy_protocol: 'v3' (expected v1 or v2)");
    }
}
