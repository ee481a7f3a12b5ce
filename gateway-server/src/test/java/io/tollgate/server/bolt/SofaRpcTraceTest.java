package io.tollgate.server.bolt;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.common.tracer.core.context.span.SofaTracerSpanContext;
import com.alipay.common.tracer.core.holder.SofaTraceContextHolder;
import com.alipay.common.tracer.core.span.SofaTracerSpan;
import com.alipay.sofa.rpc.common.RpcConstants;
import com.alipay.sofa.rpc.config.ConsumerConfig;
import com.alipay.sofa.rpc.config.ProviderConfig;
import com.alipay.sofa.rpc.config.ServerConfig;
import com.alipay.sofa.rpc.context.RpcInvokeContext;
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
 * The {@code trace} filter on Bolt between a real SOFARPC consumer and a real SOFARPC provider,
 * both with SOFATracer: the provider's server span is the child of the gateway's (rpc id
 * {@code 0.1} under the consumer's {@code 0}) in the consumer's trace, and a W3C
 * {@code traceparent} sent as a Bolt header reaches the provider with the gateway's span as
 * parent. Without the filter both arrive as the consumer sent them.
 */
class SofaRpcTraceTest {

    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final String CONFIG = """
            listeners:
              - name: traced
                port: 0
                protocols: [bolt]
                filters: [{ name: trace }]
                access_log: { path: "${LOG}", format: "%RPC_METHOD% %TRACE_ID% %SPAN_ID%" }
                route_config:
                  virtual_hosts:
                    - { name: echo, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: provider } }] }
              - name: plain
                port: 0
                protocols: [bolt]
                route_config:
                  virtual_hosts:
                    - { name: echo, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: provider } }] }
            clusters:
              - name: provider
                endpoints: [{ address: 127.0.0.1, port: ${PROVIDER} }]
            """;

    @TempDir
    static Path dir;
    private static final Recording recording = new Recording();
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
        provider = new ProviderConfig<EchoService>().setInterfaceId(EchoService.class.getName()).setRef(recording)
                .setServer(server).setRegister(false);
        provider.export();
        gateway = TestGateway.start(CONFIG, Map.of("PROVIDER", providerPort, "LOG", dir.resolve("access.log")));
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
    void providersSpanIsAChildOfTheGatewaysInTheConsumersTrace() throws Exception {
        refer("traced").echo("sofa");

        String[] logged = logLine("echo", recording.span.getTraceId());
        assertThat(recording.span.getTraceId()).isEqualTo(logged[1]);
        assertThat(recording.span.getSpanId()).isEqualTo("0.1");
        assertThat(recording.span.getParentId()).isEqualTo("0");

        refer("plain").echo("sofa");
        assertThat(recording.span.getSpanId()).isEqualTo("0");
    }

    @Test
    void traceparentSentAsABoltHeaderGetsTheGatewaysSpanAsParent() throws Exception {
        EchoService traced = refer("traced");
        RpcInvokeContext.getContext().addCustomHeader("traceparent", TRACEPARENT);
        traced.echo("w3c");

        String[] logged = logLine("echo", "4bf92f3577b34da6a3ce929d0e0e4736");
        String gatewaySpan = logged[2];
        assertThat(recording.headers.get("traceparent"))
                .isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-" + gatewaySpan + "-01");
        assertThat(logged[1]).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");

        EchoService plain = refer("plain");
        RpcInvokeContext.getContext().addCustomHeader("traceparent", TRACEPARENT);
        plain.echo("w3c");
        assertThat(recording.headers.get("traceparent")).isEqualTo(TRACEPARENT);
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

    /** The access log line that starts with {@code method} and holds {@code part}, split at spaces. */
    private static String[] logLine(String method, String part) throws InterruptedException {
        Path log = dir.resolve("access.log");
        Await.until("the log line of " + method, Duration.ofSeconds(5),
                () -> lines(log).stream().anyMatch(l -> l.startsWith(method + " ") && l.contains(part)));
        return lines(log).stream().filter(l -> l.startsWith(method + " ") && l.contains(part)).reduce((a, b) -> b)
                .orElseThrow().split(" ");
    }

    private static List<String> lines(Path log) {
        try {
            return Files.exists(log) ? Files.readAllLines(log) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A provider that keeps the server span and the request headers of the last call it served. */
    private static final class Recording implements EchoService {

        volatile SofaTracerSpanContext span;
        volatile Map<?, ?> headers;

        @Override
        public String echo(String message) {
            SofaTracerSpan current = SofaTraceContextHolder.getSofaTraceContext().getCurrentSpan();
            span = current.getSofaTracerSpanContext();
            headers = (Map<?, ?>) RpcInvokeContext.getContext().get("request_header_key");
            return message;
        }

        @Override
        public String fail(String message) {
            throw new IllegalStateException(message);
        }

        @Override
        public String slow(String message) {
            return message;
        }

        @Override
        public void record(String message) {
        }
    }
}
