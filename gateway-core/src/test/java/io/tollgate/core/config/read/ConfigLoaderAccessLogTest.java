package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.AccessLogConfig;
import io.tollgate.core.config.ConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigLoaderAccessLogTest {

    private static String config(String accessLog) {
        return """
                listeners:
                  - name: http
                    access_log: %s
                    route_config:
                      virtual_hosts:
                        - name: vh
                          domains: ["*"]
                          routes: [{ match: { prefix: / }, route: { cluster: backend } }]
                clusters: [{ name: backend, endpoints: [{ address: 127.0.0.1, port: 9000 }] }]
                """.formatted(accessLog);
    }

    private static AccessLogConfig load(String accessLog) {
        return ConfigLoader.parse(config(accessLog)).listeners().get(0).accessLog();
    }

    @Test
    void readsAFormatStringAndAJsonFormat() {
        assertThat(load("{ path: stdout }")).isEqualTo(new AccessLogConfig("stdout"));
        assertThat(load("{ path: stdout, format: \"%RESPONSE_CODE% %REQ(user-agent):10%\" }").format())
                .isEqualTo("%RESPONSE_CODE% %REQ(user-agent):10%");
        assertThat(load("{ path: stdout, json_format: { status: \"%RESPONSE_CODE%\", rpc: \"%RPC_SERVICE%\" } }")
                .jsonFormat()).containsExactly(Map.entry("status", "%RESPONSE_CODE%"), Map.entry("rpc", "%RPC_SERVICE%"));
    }

    @Test
    void namesThePathOfAnUnknownOperator() {
        assertThatThrownBy(() -> load("{ path: stdout, format: \"%RESPONSE_CODE% %UPSTREAM_HOTS%\" }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("listeners[0].access_log.format: unknown operator %UPSTREAM_HOTS% (expected one of [");
        assertThatThrownBy(() -> load("{ path: stdout, json_format: { ok: \"%DURATION%\", bad: \"%REQ()%\" } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("listeners[0].access_log.json_format.bad: %REQ()% needs a header name, e.g. %REQ(x-request-id)%");
    }

    @Test
    void refusesBothFormsAtOnce() {
        assertThatThrownBy(() -> load("{ path: stdout, format: \"%DURATION%\", json_format: { d: \"%DURATION%\" } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("listeners[0].access_log.json_format: set beside format (expected one of format and json_format)");
    }
}
