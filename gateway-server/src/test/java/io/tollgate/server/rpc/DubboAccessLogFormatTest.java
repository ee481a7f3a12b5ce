package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.server.testing.LogLines;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.nio.file.Path;
import java.util.Map;
import org.apache.dubbo.rpc.RpcContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Dubbo consumer calls a real Dubbo provider through the gateway, and the configured access
 * log formats write the call's interface, method and attachments: a format string on one listener,
 * a JSON format on another.
 */
class DubboAccessLogFormatTest {

    private static final String INTERFACE = DubboEchoService.class.getName();
    private static final String CONFIG = """
            listeners:
              - name: text
                port: 0
                protocols: [dubbo]
                access_log:
                  path: "${TEXT_LOG}"
                  format: "%PROTOCOL% %RPC_SERVICE% %RPC_METHOD% %RESPONSE_CODE% %REQ(tag)% %REQ(missing?interface)% %ROUTE_NAME%"
                route_config:
                  virtual_hosts:
                    - { name: echo, domains: ["${INTERFACE}"], routes: [{ name: echo, match: { prefix: / }, route: { cluster: main } }] }
              - name: json
                port: 0
                protocols: [dubbo]
                access_log:
                  path: "${JSON_LOG}"
                  json_format:
                    service: "%RPC_SERVICE%"
                    method: "%RPC_METHOD%"
                    status: "%RESPONSE_CODE%"
                    tag: "%REQ(tag)%"
                    received: "%BYTES_RECEIVED%"
                route_config:
                  virtual_hosts:
                    - { name: echo, domains: ["${INTERFACE}"], routes: [{ match: { prefix: / }, route: { cluster: main } }] }
            clusters:
              - name: main
                endpoints: [{ address: 127.0.0.1, port: ${MAIN} }]
            """;

    @TempDir
    static Path dir;
    private static final StartedResources started = new StartedResources();
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        DubboProvider main = started.add(DubboProvider.named("main").start());
        gateway = started.add(TestGateway.start(CONFIG, Map.of("INTERFACE", INTERFACE, "MAIN", main.port(),
                "TEXT_LOG", dir.resolve("text.log"), "JSON_LOG", dir.resolve("json.log"))));
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void formatStringWritesInterfaceMethodAndAttachments() throws Exception {
        try (DubboConsumer consumer = DubboConsumer.to(gateway.port("text")).connect()) {
            RpcContext.getClientAttachment().setAttachment("tag", "blue tag");
            assertThat(consumer.service().echo("hi")).isEqualTo("hi");
        }

        assertThat(LogLines.await(dir.resolve("text.log"), 1).get(0)).isEqualTo("DUBBO " + INTERFACE + " echo 200 blue tag " + INTERFACE + " echo");
    }

    @Test
    void jsonFormatWritesOneObjectPerCall() throws Exception {
        try (DubboConsumer consumer = DubboConsumer.to(gateway.port("json")).connect()) {
            RpcContext.getClientAttachment().setAttachment("tag", "say \"hi\"");
            assertThat(consumer.service().echo("json")).isEqualTo("json");
        }

        JsonNode line = new ObjectMapper().readTree(LogLines.await(dir.resolve("json.log"), 1).get(0));
        assertThat(line.get("service").asText()).isEqualTo(INTERFACE);
        assertThat(line.get("method").asText()).isEqualTo("echo");
        assertThat(line.get("status").asInt()).isEqualTo(200);
        assertThat(line.get("tag").asText()).isEqualTo("say \"hi\"");
        assertThat(line.get("received").asLong()).isPositive();
    }
}
