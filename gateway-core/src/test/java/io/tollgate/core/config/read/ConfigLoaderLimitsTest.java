package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ConnectionLimits;
import io.tollgate.core.config.ForwardActionConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.OverloadConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The timeouts and limits of connections and requests, the overload guard and the drain timeout,
 * as the loader reads them.
 */
class ConfigLoaderLimitsTest {

    private static String config(String top, String listenerExtra, String routeExtra) {
        return top + """
                listeners:
                  - name: web
                    protocols: [http1, h2c]
                %s
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes: [{ match: { prefix: / }, route: { cluster: up %s } }]
                clusters:
                  - name: up
                    endpoints: [{ address: 127.0.0.1, port: 8081 }]
                """.formatted(listenerExtra, routeExtra);
    }

    @Test
    void readsEveryLimit() {
        GatewayConfig config = ConfigLoader.parse(config("""
                overload: { max_connections: 5000, heap_threshold: 0.9, fd_threshold: 0.8, check_interval: 250ms }
                drain: { timeout: 45s }
                """, """
                    protocol_detection_timeout: 3s
                    max_connections: 100
                    http: { request_headers_timeout: 2s }
                    http2: { first_frame_timeout: 4s }
                """, ", timeout: 20s, max_grpc_timeout: 5s"));

        ListenerConfig listener = config.listeners().get(0);
        assertThat(listener.limits()).isEqualTo(new ConnectionLimits(Duration.ofSeconds(3), 100));
        assertThat(listener.http().requestHeadersTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(listener.http2().firstFrameTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(config.overload()).isEqualTo(new OverloadConfig(5000, 0.9, 0.8, Duration.ofMillis(250)));
        assertThat(config.drain().timeout()).isEqualTo(Duration.ofSeconds(45));
        ForwardActionConfig forward = listener.routeConfig().virtualHosts().get(0).routes().get(0).forward().orElseThrow();
        assertThat(forward.maxGrpcTimeout()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void defaultsHoldWhenNothingIsSaid() {
        GatewayConfig config = ConfigLoader.parse(config("", "", ", timeout: 20s"));

        ListenerConfig listener = config.listeners().get(0);
        assertThat(listener.limits()).isEqualTo(ConnectionLimits.DEFAULTS);
        assertThat(listener.limits().protocolDetectionTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(listener.http().requestHeadersTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(listener.http2().firstFrameTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.overload()).isEqualTo(OverloadConfig.DEFAULTS);
        assertThat(config.drain().timeout()).isEqualTo(Duration.ofSeconds(30));
        ForwardActionConfig forward = listener.routeConfig().virtualHosts().get(0).routes().get(0).forward().orElseThrow();
        assertThat(forward.maxGrpcTimeout()).as("the route timeout").isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void namesTheBadLimitByItsPath() {
        assertRejected(config("", "    protocol_detection_timeout: 0s", ""), "listeners[0].protocol_detection_timeout");
        assertRejected(config("", "    max_connections: -1", ""), "listeners[0].max_connections");
        assertRejected(config("", "    http: { request_headers_timeout: 0s }", ""), "listeners[0].http.request_headers_timeout");
        assertRejected(config("", "    http2: { first_frame_timeout: -1s }", ""), "listeners[0].http2.first_frame_timeout");
        assertRejected(config("overload: { heap_threshold: 1.5 }\n", "", ""), "overload.heap_threshold: 1.5 (expected: > 0 and <= 1)");
        assertRejected(config("overload: { fd_threshold: 0 }\n", "", ""), "overload.fd_threshold");
        assertRejected(config("overload: { max_connections: -2 }\n", "", ""), "overload.max_connections");
        assertRejected(config("overload: { check_interval: 0s }\n", "", ""), "overload.check_interval");
        assertRejected(config("overload: { heap: 1 }\n", "", ""), "overload.heap");
        assertRejected(config("drain: { timeout: 0s }\n", "", ""), "drain.timeout");
        assertRejected(config("drain: { timeout: soon }\n", "", ""), "drain.timeout: 'soon' is not a duration");
        assertRejected(config("drain: { grace: 1s }\n", "", ""), "drain.grace: unknown field (expected one of [timeout])");
        assertRejected(config("", "", ", max_grpc_timeout: 0s"),
                "listeners[0].route_config.virtual_hosts[0].routes[0].route.max_grpc_timeout");
    }

    private static void assertRejected(String yaml, String message) {
        assertThatThrownBy(() -> ConfigLoader.parse(yaml)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(message);
    }
}
