package io.tollgate.server.bolt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alipay.sofa.rpc.common.RpcConstants;
import com.alipay.sofa.rpc.config.ConsumerConfig;
import com.alipay.sofa.rpc.config.ProviderConfig;
import com.alipay.sofa.rpc.config.ServerConfig;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
    private static final List<ConsumerConfig<?>> consumers = new ArrayList<>();
    private static ProviderConfig<EchoService> provider;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        int providerPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            providerPort = socket.getLocalPort();
        }
        ServerConfig server = new ServerConfig().setProtocol("bolt").setHost("127.0.0.1").setBoundHost("127.0.0.1")
                .setPort(providerPort).setDaemon(true);
        provider = new ProviderConfig<EchoService>().setInterfaceId(EchoService.class.getName())
                .setRef(new EchoServiceImpl()).setServer(server).setRegister(false);
        provider.export();
        gateway = TestGateway.start(CONFIG, Map.of("PROVIDER", providerPort, "SERVICE", SERVICE,
                "TEXT_LOG", dir.resolve("text.log"), "JSON_LOG", dir.resolve("json.log")));
    }

    @AfterAll
    static void stop() {
        consumers.forEach(ConsumerConfig::unRefer);
        if (gateway != null) {
            gateway.close();
        }
        if (provider != null) {
            provider.unExport();
            provider.getServer().get(0).destroy();
        }
    }

    @Test
    void formatStringWritesServiceMethodAndBoltHeaders() throws Exception {
        EchoService echo = refer("text");
        assertThat(echo.echo("hi")).isEqualTo("hi");
        assertThatThrownBy(() -> echo.fail("no")).hasMessageContaining("no");

        Path log = dir.resolve("text.log");
        Await.until("two lines", Duration.ofSeconds(5), () -> lines(log).size() >= 2);
        List<String> lines = lines(log);
        assertThat(lines.get(0)).matches("BOLT/1 " + SERVICE.replace(".", "\\.") + " echo 200 echo sync - provider \\d+");
        assertThat(lines.get(1)).startsWith("BOLT/1 " + SERVICE + " fail ").contains(" fail sync true provider ");
    }

    @Test
    void jsonFormatWritesOneObjectPerCall() throws Exception {
        assertThat(refer("json").echo("json")).isEqualTo("json");

        Path log = dir.resolve("json.log");
        Await.until("a line", Duration.ofSeconds(5), () -> !lines(log).isEmpty());
        JsonNode line = new ObjectMapper().readTree(lines(log).get(0));
        assertThat(line.get("service").asText()).isEqualTo(SERVICE);
        assertThat(line.get("method").asText()).isEqualTo("echo");
        assertThat(line.get("status").asInt()).isEqualTo(200);
        assertThat(line.get("target").asText()).isEqualTo(SERVICE);
        assertThat(line.get("error").isNull()).isTrue();
    }

    private static EchoService refer(String listener) {
        ConsumerConfig<EchoService> config = new ConsumerConfig<EchoService>()
                .setInterfaceId(EchoService.class.getName())
                .setProtocol("bolt")
                .setDirectUrl("bolt://127.0.0.1:" + gateway.port(listener))
                .setRegister(false)
                .setInvokeType(RpcConstants.INVOKER_TYPE_SYNC)
                .setTimeout(5000)
                .setRepeatedReferLimit(8);
        consumers.add(config);
        return config.refer();
    }

    private static List<String> lines(Path log) {
        try {
            return Files.exists(log) ? Files.readAllLines(log) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
