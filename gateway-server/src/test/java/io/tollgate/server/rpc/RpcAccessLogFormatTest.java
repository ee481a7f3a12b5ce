package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.server.testing.LogLines;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real SOFARPC consumer calls a real SOFARPC provider through the gateway over Bolt, and the
 * configured access log formats write the call's service, method, Bolt headers and response
 * headers: a format string on one listener, a JSON format on another.
 */
class SofaRpcAccessLogFormatTest {

    private static final String SERVICE = EchoService.class.getName() + ":1.0";
    private static final String CONFIG = """
            listeners:
              - name: text
                port: 0
                protocols: [bolt]
                access_log:
                  path: "${TEXT_LOG}"
                  format: "%PROTOCOL% %RPC_SERVICE% %RPC_METHOD% %RESPONSE_CODE% %REQ(sofa_head_method_name)% %REQ(type)% %RESP(sofa_head_response_error)% %UPSTREAM_CLUSTER% %REQUEST_ID%"
                route_config:
                  virtual_hosts:
                    - { name: echo, domains: ["${SERVICE}"], routes: [{ match: { prefix: / }, route: { cluster: provider } }] }
              - name: json
                port: 0
                protocols: [bolt]
                access_log:
                  path: "${JSON_LOG}"
                  json_format:
                    service: "%RPC_SERVICE%"
                    method: "%RPC_METHOD%"
                    status: "%RESPONSE_CODE%"
                    target: "%REQ(sofa_head_target_service)%"
                    error: "%RESP(sofa_head_response_error)%"
                route_config:
                  virtual_hosts:
                    - { name: echo, domains: ["${SERVICE}"], routes: [{ match: { prefix: / }, route: { cluster: provider } }] }
            clusters:
              - name: provider
                endpoints: [{ address: 127.0.0.1, port: ${PROVIDER} }]
            """;

    @TempDir
    static Path dir;
    private static final StartedResources started = new StartedResources();
    private static SofaRpc sofa;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        sofa = started.add(new SofaRpc(new EchoServiceImpl()));
        gateway = started.add(TestGateway.start(CONFIG, Map.of("PROVIDER", sofa.port(), "SERVICE", SERVICE,
                "TEXT_LOG", dir.resolve("text.log"), "JSON_LOG", dir.resolve("json.log"))));
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void formatStringWritesServiceMethodAndBoltHeaders() throws Exception {
        EchoService echo = sofa.refer(gateway.port("text"));
        assertThat(echo.echo("hi")).isEqualTo("hi");
        assertThatThrownBy(() -> echo.fail("no")).hasMessageContaining("no");

        List<String> lines = LogLines.await(dir.resolve("text.log"), 2);
        assertThat(lines.get(0)).matches("BOLT/1 " + SERVICE.replace(".", "\\.") + " echo 200 echo sync - provider \\d+");
        assertThat(lines.get(1)).startsWith("BOLT/1 " + SERVICE + " fail ").contains(" fail sync true provider ");
    }

    @Test
    void jsonFormatWritesOneObjectPerCall() throws Exception {
        assertThat(sofa.refer(gateway.port("json")).echo("json")).isEqualTo("json");

        JsonNode line = new ObjectMapper().readTree(LogLines.await(dir.resolve("json.log"), 1).get(0));
        assertThat(line.get("service").asText()).isEqualTo(SERVICE);
        assertThat(line.get("method").asText()).isEqualTo("echo");
        assertThat(line.get("status").asInt()).isEqualTo(200);
        assertThat(line.get("target").asText()).isEqualTo(SERVICE);
        assertThat(line.get("error").isNull()).isTrue();
    }
}
