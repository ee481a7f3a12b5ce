package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A listener's filter marked {@code disabled: true} runs on no request but those of the routes
 * that give it settings of their own (Envoy's disabled HTTP filter, which routes enable).
 */
class DisabledListenerFilterTest {

    private static final String CONFIG = """
            listeners:
              - name: web
                port: 0
                filters:
                  - { name: fault, disabled: true }
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - name: teapot
                          match: { prefix: /teapot }
                          route: { cluster: app }
                          filters: { fault: { abort: { http_status: 418 } } }
                        - name: off
                          match: { prefix: /off }
                          route: { cluster: app }
                          filters: { fault: { disabled: true } }
                        - name: app
                          match: { prefix: / }
                          route: { cluster: app }
            clusters:
              - name: app
                endpoints: [ { address: 127.0.0.1, port: ${APP} } ]
            """;

    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void runsOnlyOnTheRoutesThatGiveItSettings() throws Exception {
        try (HttpUpstream app = new HttpUpstream("app");
                TestGateway gateway = TestGateway.start(CONFIG, Map.of("APP", app.port()))) {
            assertThat(status(gateway, "/x")).isEqualTo(200);
            assertThat(status(gateway, "/off")).isEqualTo(200);
            assertThat(status(gateway, "/teapot")).isEqualTo(418);
        }
    }

    @Test
    void takesNoSettingsOfItsOwn() {
        assertThatThrownBy(() -> ConfigLoader.parse("""
                listeners:
                  - name: web
                    filters: [ { name: fault, disabled: true, abort: { http_status: 503 } } ]
                    route_config: { virtual_hosts: [] }
                """)).isInstanceOf(ConfigException.class).hasMessageContaining("listeners[0].filters[0].abort");
    }

    private int status(TestGateway gateway, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(gateway.uri("web", path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
