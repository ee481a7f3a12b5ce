package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.server.testing.GatewayExtension;
import io.tollgate.server.testing.LogLines;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.dubbo.rpc.RpcContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real client of each RPC protocol calls a real provider through the gateway (SOFARPC over
 * Bolt, Apache Dubbo), and the configured access log formats write the call's service, method and
 * the protocol's own headers (Bolt request and response headers, Dubbo attachments): a format
 * string on one listener of each protocol, the same JSON format on another.
 */
class RpcAccessLogFormatTest {

    private static final String BOLT_SERVICE = EchoService.class.getName() + ":1.0";
    private static final String DUBBO_INTERFACE = DubboEchoService.class.getName();
    private static final String JSON_FORMAT = """
                  json_format:
                    service: "%RPC_SERVICE%"
                    method: "%RPC_METHOD%"
                    status: "%RESPONSE_CODE%"
                    received: "%BYTES_RECEIVED%"
                    target: "%REQ(sofa_head_target_service)%"
                    error: "%RESP(sofa_head_response_error)%"
                    tag: "%REQ(tag)%"
            """;
    private static final String CONFIG = """
            listeners:
              - name: bolt-text
                port: 0
                protocols: [bolt]
                access_log:
                  path: "${BOLT_TEXT_LOG}"
                  format: "%PROTOCOL% %RPC_SERVICE% %RPC_METHOD% %RESPONSE_CODE% %REQ(sofa_head_method_name)% %REQ(type)% %RESP(sofa_head_response_error)% %UPSTREAM_CLUSTER% %REQUEST_ID%"
                route_config:
                  virtual_hosts:
                    - { name: echo, domains: ["${BOLT_SERVICE}"], routes: [{ match: { prefix: / }, route: { cluster: provider } }] }
              - name: bolt-json
                port: 0
                protocols: [bolt]
                access_log:
                  path: "${BOLT_JSON_LOG}"
            """ + JSON_FORMAT + """
                route_config:
                  virtual_hosts:
                    - { name: echo, domains: ["${BOLT_SERVICE}"], routes: [{ match: { prefix: / }, route: { cluster: provider } }] }
              - name: dubbo-text
                port: 0
                protocols: [dubbo]
                access_log:
                  path: "${DUBBO_TEXT_LOG}"
                  format: "%PROTOCOL% %RPC_SERVICE% %RPC_METHOD% %RESPONSE_CODE% %REQ(tag)% %REQ(missing?interface)% %ROUTE_NAME%"
                route_config:
                  virtual_hosts:
                    - { name: echo, domains: ["${DUBBO_INTERFACE}"], routes: [{ name: echo, match: { prefix: / }, route: { cluster: main } }] }
              - name: dubbo-json
                port: 0
                protocols: [dubbo]
                access_log:
                  path: "${DUBBO_JSON_LOG}"
            """ + JSON_FORMAT + """
                route_config:
                  virtual_hosts:
                    - { name: echo, domains: ["${DUBBO_INTERFACE}"], routes: [{ match: { prefix: / }, route: { cluster: main } }] }
            clusters:
              - name: provider
                endpoints: [{ address: 127.0.0.1, port: ${PROVIDER} }]
              - name: main
                endpoints: [{ address: 127.0.0.1, port: ${MAIN} }]
            """;

    /** The protocols whose calls are logged, each with the service its calls name. */
    enum Rpc {
        BOLT(BOLT_SERVICE), DUBBO(DUBBO_INTERFACE);

        final String service;

        Rpc(String service) {
            this.service = service;
        }

        /** The access log of this protocol's listener with {@code format} ({@code text} or {@code json}). */
        Path log(String format) {
            return dir.resolve(name().toLowerCase(Locale.ROOT) + "-" + format + ".log");
        }
    }

    @RegisterExtension
    static final GatewayExtension gateway = new GatewayExtension();
    @TempDir
    static Path dir;
    private static SofaRpc sofa;

    @BeforeAll
    static void start() throws Exception {
        sofa = gateway.add(new SofaRpc(new EchoServiceImpl()));
        DubboProvider main = gateway.add(DubboProvider.named("main").start());
        gateway.start(CONFIG, Map.of("PROVIDER", sofa.port(), "BOLT_SERVICE", BOLT_SERVICE, "MAIN", main.port(),
                "DUBBO_INTERFACE", DUBBO_INTERFACE, "BOLT_TEXT_LOG", Rpc.BOLT.log("text"),
                "BOLT_JSON_LOG", Rpc.BOLT.log("json"), "DUBBO_TEXT_LOG", Rpc.DUBBO.log("text"),
                "DUBBO_JSON_LOG", Rpc.DUBBO.log("json")));
    }

    @ParameterizedTest
    @EnumSource(Rpc.class)
    void formatStringWritesServiceMethodAndTheProtocolsHeaders(Rpc rpc) throws Exception {
        switch (rpc) {
            case BOLT -> {
                EchoService echo = sofa.refer(gateway.port("bolt-text"));
                assertThat(echo.echo("hi")).isEqualTo("hi");
                assertThatThrownBy(() -> echo.fail("no")).hasMessageContaining("no");

                List<String> lines = LogLines.await(rpc.log("text"), 2);
                assertThat(lines.get(0)).matches("BOLT/1 " + BOLT_SERVICE.replace(".", "\\.")
                        + " echo 200 echo sync - provider \\d+");
                assertThat(lines.get(1)).startsWith("BOLT/1 " + BOLT_SERVICE + " fail ")
                        .contains(" fail sync true provider ");
            }
            case DUBBO -> {
                try (DubboConsumer consumer = DubboConsumer.to(gateway.port("dubbo-text")).connect()) {
                    RpcContext.getClientAttachment().setAttachment("tag", "blue tag");
                    assertThat(consumer.service().echo("hi")).isEqualTo("hi");
                }

                assertThat(LogLines.await(rpc.log("text"), 1).get(0))
                        .isEqualTo("DUBBO " + DUBBO_INTERFACE + " echo 200 blue tag " + DUBBO_INTERFACE + " echo");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Rpc.class)
    void jsonFormatWritesOneObjectPerCall(Rpc rpc) throws Exception {
        switch (rpc) {
            case BOLT -> assertThat(sofa.refer(gateway.port("bolt-json")).echo("json")).isEqualTo("json");
            case DUBBO -> {
                try (DubboConsumer consumer = DubboConsumer.to(gateway.port("dubbo-json")).connect()) {
                    RpcContext.getClientAttachment().setAttachment("tag", "say \"hi\"");
                    assertThat(consumer.service().echo("json")).isEqualTo("json");
                }
            }
        }

        JsonNode line = new ObjectMapper().readTree(LogLines.await(rpc.log("json"), 1).get(0));
        assertThat(line.get("service").asText()).isEqualTo(rpc.service);
        assertThat(line.get("method").asText()).isEqualTo("echo");
        assertThat(line.get("status").asInt()).isEqualTo(200);
        assertThat(line.get("received").asLong()).isPositive();
        assertThat(line.get("error").isNull()).isTrue();
        switch (rpc) {
            case BOLT -> assertThat(line.get("target").asText()).isEqualTo(BOLT_SERVICE);
            case DUBBO -> assertThat(line.get("tag").asText()).isEqualTo("say \"hi\"");
        }
    }
}
