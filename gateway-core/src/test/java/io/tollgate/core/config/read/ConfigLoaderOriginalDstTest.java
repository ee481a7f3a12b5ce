package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.OriginalDstConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code transparent} on a listener and {@code type: original_dst} clusters as the file writes them, and what such a cluster refuses. */
class ConfigLoaderOriginalDstTest {

    private static GatewayConfig load(String listenerExtra, String clusterExtra) {
        return ConfigLoader.parse("""
                listeners:
                  - name: web
                %s
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes: [{ match: { prefix: / }, route: { cluster: out } }]
                clusters:
                  - name: out
                %s
                """.formatted(listenerExtra.indent(4), clusterExtra.indent(4)));
    }

    @Test
    void readsATransparentListenerAndAnOriginalDstClusterWithItsDefaults() {
        GatewayConfig config = load("transparent: true", "type: original_dst");
        assertThat(config.listeners().get(0).transparent()).isTrue();
        assertThat(config.cluster("out").orElseThrow().originalDst()).contains(OriginalDstConfig.DEFAULTS);
        assertThat(config.cluster("out").orElseThrow().dns()).isEmpty();
    }

    @Test
    void readsTheOriginalDstBlock() {
        OriginalDstConfig read = load("", """
                type: original_dst
                original_dst: { max_hosts: 10, host_idle_timeout: 30s, use_http_header: true }
                """).cluster("out").orElseThrow().originalDst().orElseThrow();
        assertThat(read).isEqualTo(new OriginalDstConfig(10, Duration.ofSeconds(30), true));
        assertThat(load("", "endpoints: [ { address: 127.0.0.1, port: 80 } ]").listeners().get(0).transparent())
                .isFalse();
    }

    @Test
    void refusesWhatAnOriginalDstClusterCannotHave() {
        assertThatThrownBy(() -> load("", "type: original_dst\nendpoints: [ { address: 127.0.0.1, port: 80 } ]"))
                .hasMessageContaining("clusters[0].endpoints: does not apply to an original_dst cluster");
        assertThatThrownBy(() -> load("", "type: original_dst\noutlier_detection: { consecutive_5xx: 3 }"))
                .hasMessageContaining("clusters[0].outlier_detection: does not apply to an original_dst cluster");
        assertThatThrownBy(() -> load("", "type: original_dst\ndns_refresh_rate: 1s"))
                .hasMessageContaining("clusters[0].dns_refresh_rate: only applies to type strict_dns or logical_dns"
                        + " (type is original_dst)");
        assertThatThrownBy(() -> load("", "original_dst: { max_hosts: 3 }\nendpoints: [ { address: 127.0.0.1, port: 80 } ]"))
                .hasMessageContaining("clusters[0].original_dst: only applies to type original_dst");
        assertThatThrownBy(() -> load("", "type: original_dst\noriginal_dst: { max_hosts: 0 }"))
                .hasMessageContaining("clusters[0].original_dst.max_hosts");
        assertThatThrownBy(() -> load("", "type: original_dst\noriginal_dst: { port: 80 }"))
                .hasMessageContaining("clusters[0].original_dst.port");
    }
}
