package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.Http2Options;
import io.tollgate.core.config.ListenerConfig;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigLoaderHttp2Test {

    private static String config(String listenerExtra, String clusterExtra) {
        return """
                listeners:
                  - name: web
                    protocols: [http1, h2c]
                %s
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes: [{ match: { prefix: / }, route: { cluster: grpc } }]
                clusters:
                  - name: grpc
                %s
                    endpoints: [{ address: 127.0.0.1, port: 50051 }]
                """.formatted(listenerExtra, clusterExtra);
    }

    @Test
    void readsHttp2ListenerOptionsAndUpstreamProtocol() {
        GatewayConfig config = ConfigLoader.parse(config("    http2: { max_concurrent_streams: 50, initial_window_bytes: 131072,"
                + " max_frame_bytes: 32768, max_header_list_bytes: 8192, max_resets_per_window: 20, reset_window: 10s,"
                + " max_queued_control_frames: 500, max_small_continuation_frames: 4, window_hold_timeout: 5s }",
                "    protocol: h2"));

        ListenerConfig listener = config.listeners().get(0);
        assertThat(listener.protocols()).isEqualTo(List.of("http1", "h2c"));
        assertThat(listener.http2()).isEqualTo(new Http2Options(50, 131072, 32768, 8192, 20, Duration.ofSeconds(10),
                500, 4, Duration.ofSeconds(5), Duration.ofSeconds(10)));
        assertThat(config.cluster("grpc").orElseThrow().protocol()).isEqualTo(ClusterConfig.H2);
    }

    @Test
    void defaultsToHttp1UpstreamsAndDefaultHttp2Options() {
        GatewayConfig config = ConfigLoader.parse(config("", ""));

        assertThat(config.listeners().get(0).http2()).isEqualTo(Http2Options.DEFAULTS);
        assertThat(config.cluster("grpc").orElseThrow().protocol()).isEqualTo(ClusterConfig.HTTP1);
    }

    @Test
    void rejectsAnUnknownUpstreamProtocol() {
        assertThatThrownBy(() -> ConfigLoader.parse(config("", "    protocol: h3")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("clusters[0].protocol: unknown protocol 'h3' (expected one of [h2, http1])");
    }

    @Test
    void rejectsAFrameSizeOutsideTheRfcRange() {
        assertThatThrownBy(() -> ConfigLoader.parse(config("    http2: { max_frame_bytes: 1000 }", "")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listeners[0].http2.max_frame_bytes");
    }
}
