package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.protocols.bolt.BoltOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigLoaderBoltTest {

    private static String config(String listenerExtra, String clusterExtra) {
        return """
                listeners:
                  - name: rpc
                    protocols: [http1, bolt]
                %s
                    route_config:
                      virtual_hosts:
                        - name: orders
                          domains: ["com.example.OrderService:1.0"]
                          routes: [{ match: { prefix: / }, route: { cluster: orders } }]
                clusters:
                  - name: orders
                %s
                    endpoints: [{ address: 127.0.0.1, port: 12200 }]
                """.formatted(listenerExtra, clusterExtra);
    }

    @Test
    void readsBoltListenerAndClusterOptions() {
        GatewayConfig config = ConfigLoader.parse(config(
                "    bolt: { max_frame_bytes: 4096, max_class_bytes: 200, max_header_bytes: 300, idle_timeout: 2m }",
                "    connections_per_host: 3\n    heartbeat_interval: 500ms"));

        ListenerConfig listener = config.listeners().get(0);
        assertThat(listener.protocols()).isEqualTo(List.of("http1", "bolt"));
        assertThat(listener.options("bolt")).isEqualTo(new BoltOptions(4096, 200, 300, Duration.ofMinutes(2)));
        ClusterConfig cluster = config.cluster("orders").orElseThrow();
        assertThat(cluster.connectionsPerHost()).isEqualTo(3);
        assertThat(cluster.heartbeatInterval()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void fillsBoltDefaultsWhenNothingIsSaid() {
        GatewayConfig config = ConfigLoader.parse(config("", ""));

        assertThat(config.listeners().get(0).options("bolt")).isEqualTo(BoltOptions.DEFAULTS);
        assertThat(config.cluster("orders").orElseThrow().connectionsPerHost()).isEqualTo(1);
        assertThat(config.cluster("orders").orElseThrow().heartbeatInterval()).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void rejectsAFrameLimitBelowAnyFrame() {
        assertThatThrownBy(() -> ConfigLoader.parse(config("    bolt: { max_frame_bytes: 10 }", "")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listeners[0].bolt.max_frame_bytes");
    }

    @Test
    void readsAndChecksTheFirstFrameTimeoutOfRpcListeners() {
        GatewayConfig config = ConfigLoader.parse(config("    bolt: { first_frame_timeout: 3s }", ""));
        assertThat(((BoltOptions) config.listeners().get(0).options("bolt")).firstFrameTimeout())
                .isEqualTo(Duration.ofSeconds(3));
        assertThat(BoltOptions.DEFAULTS.firstFrameTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThatThrownBy(() -> ConfigLoader.parse(config("    bolt: { first_frame_timeout: 0s }", "")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listeners[0].bolt.first_frame_timeout");
        assertThatThrownBy(() -> ConfigLoader.parse(config("    dubbo: { first_frame_timeout: 0s }", "")
                .replace("[http1, bolt]", "[http1, dubbo]")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listeners[0].dubbo.first_frame_timeout");
    }

    @Test
    void rejectsZeroConnectionsPerHost() {
        assertThatThrownBy(() -> ConfigLoader.parse(config("", "    connections_per_host: 0")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("clusters[0].connections_per_host");
    }

    @Test
    void rejectsAnUnknownProtocol() {
        assertThatThrownBy(() -> ConfigLoader.parse(config("", "").replace("[http1, bolt]", "[bolt, thrift]")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown protocol 'thrift' (expected one of [bolt, dubbo, h2c, http1, tcp])");
    }
}
