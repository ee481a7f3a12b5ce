package io.tollgate.filters.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.config.read.ConfigLoader;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How listeners' {@code filters} and routes' overrides are read, with the fault filter as the example. */
class FaultFilterConfigTest {

    private static String yaml(String filters, String routeFilters) {
        return """
                listeners:
                  - name: web
                    port: 0
                %s
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - match: { prefix: / }
                              route: { cluster: web }
                %s
                clusters:
                  - name: web
                    endpoints: [{ address: 127.0.0.1, port: 8081 }]
                """.formatted(filters.indent(4), routeFilters.indent(14));
    }

    @Test
    void listenerFilterIsReadWithItsSettings() {
        GatewayConfig config = ConfigLoader.parse(yaml("""
                    filters:
                      - name: fault
                        delay: { fixed_delay: 2s, percentage: 12.5 }
                        abort: { http_status: 503, grpc_status: 14 }
                        headers: { x-fault: "yes" }
                        seed: 3""", ""));
        StreamFilterConfig filter = config.listeners().get(0).filters().get(0);
        FaultSettings settings = filter.settings(FaultSettings.class);
        assertThat(filter.name()).isEqualTo("fault");
        assertThat(settings.delay()).isEqualTo(new FaultSettings.Delay(Duration.ofSeconds(2), false, 12.5));
        assertThat(settings.abort()).isEqualTo(new FaultSettings.Abort(503, 14, false, 100));
        assertThat(settings.headers()).containsExactlyEntriesOf(java.util.Map.of("x-fault", "yes"));
        assertThat(settings.seed()).isEqualTo(3L);
    }

    @Test
    void routeOverridesReplaceOrDisableTheListenersFilter() {
        GatewayConfig config = ConfigLoader.parse(yaml("""
                    filters:
                      - name: fault
                        abort: { http_status: 503 }""", """
                              filters: { fault: { disabled: true } }"""));
        RouteEntryConfig route = config.listeners().get(0).routeConfig().virtualHosts().get(0).routes().get(0);
        assertThat(route.filters().get("fault").disabled()).isTrue();
    }

    @Test
    void errorsNameTheirPlace() {
        assertThatThrownBy(() -> ConfigLoader.parse(yaml("""
                    filters:
                      - name: nonesuch""", "")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listeners[0].filters[0].name")
                .hasMessageContaining("unknown filter 'nonesuch'")
                .hasMessageContaining("fault");
        assertThatThrownBy(() -> ConfigLoader.parse(yaml("""
                    filters:
                      - name: fault""", "")))
                .hasMessageContaining("listeners[0].filters[0]")
                .hasMessageContaining("needs a delay or an abort");
        assertThatThrownBy(() -> ConfigLoader.parse(yaml("""
                    filters:
                      - name: fault
                        abort: { http_status: 503, percentage: 101 }""", "")))
                .hasMessageContaining("listeners[0].filters[0].abort.percentage")
                .hasMessageContaining("expected 0 to 100");
        assertThatThrownBy(() -> ConfigLoader.parse(yaml("""
                    filters:
                      - name: checks
                        kind: fault
                        abort: { http_status: 503 }
                      - name: checks
                        kind: local_rate_limit
                        max_tokens: 1
                        fill_interval: 1s""", "")))
                .hasMessageContaining("listeners[0].filters[1].name")
                .hasMessageContaining("'checks' also names listeners[0].filters[0], a fault filter");
        assertThatThrownBy(() -> ConfigLoader.parse(yaml("""
                    filters:
                      - name: fault
                        kind: local_rate_limit
                        max_tokens: 1
                        fill_interval: 1s""", "")))
                .hasMessageContaining("listeners[0].filters[0].name")
                .hasMessageContaining("'fault' is another kind of filter");
        assertThatThrownBy(() -> ConfigLoader.parse(yaml("""
                    filters:
                      - name: checks
                        kind: nonesuch""", "")))
                .hasMessageContaining("listeners[0].filters[0].kind")
                .hasMessageContaining("unknown filter kind 'nonesuch'");
        assertThatThrownBy(() -> ConfigLoader.parse(yaml("", """
                              filters: { fault: { disabled: true } }""")))
                .hasMessageContaining("routes[0].filters.fault")
                .hasMessageContaining("the listener has no filter 'fault'");
        assertThatThrownBy(() -> ConfigLoader.parse(yaml("""
                    filters:
                      - name: fault
                        abort: { http_status: 503 }
                        delay_ms: 5""", "")))
                .hasMessageContaining("listeners[0].filters[0]")
                .hasMessageContaining("delay_ms");
    }
}
