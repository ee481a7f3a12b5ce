package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.common.tracer.core.context.span.SofaTracerSpanContext;
import com.alipay.common.tracer.core.holder.SofaTraceContextHolder;
import com.alipay.common.tracer.core.span.SofaTracerSpan;
import com.alipay.sofa.rpc.context.RpcInvokeContext;
import io.tollgate.server.testing.LogLines;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.nio.file.Path;
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
    private static final StartedResources started = new StartedResources();
    private static SofaRpc sofa;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        sofa = started.add(new SofaRpc(recording));
        gateway = started.add(TestGateway.start(CONFIG, Map.of("PROVIDER", sofa.port(), "LOG", dir.resolve("access.log"))));
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void providersSpanIsAChildOfTheGatewaysInTheConsumersTrace() throws Exception {
        sofa.refer(gateway.port("traced")).echo("sofa");

        String[] logged = logLine("echo", recording.span.getTraceId());
        assertThat(recording.span.getTraceId()).isEqualTo(logged[1]);
        assertThat(recording.span.getSpanId()).isEqualTo("0.1");
        assertThat(recording.span.getParentId()).isEqualTo("0");

        sofa.refer(gateway.port("plain")).echo("sofa");
        assertThat(recording.span.getSpanId()).isEqualTo("0");
    }

    @Test
    void traceparentSentAsABoltHeaderGetsTheGatewaysSpanAsParent() throws Exception {
        EchoService traced = sofa.refer(gateway.port("traced"));
        RpcInvokeContext.getContext().addCustomHeader("traceparent", TRACEPARENT);
        traced.echo("w3c");

        String[] logged = logLine("echo", "4bf92f3577b34da6a3ce929d0e0e4736");
        String gatewaySpan = logged[2];
        assertThat(recording.headers.get("traceparent"))
                .isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-" + gatewaySpan + "-01");
        assertThat(logged[1]).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");

        EchoService plain = sofa.refer(gateway.port("plain"));
        RpcInvokeContext.getContext().addCustomHeader("traceparent", TRACEPARENT);
        plain.echo("w3c");
        assertThat(recording.headers.get("traceparent")).isEqualTo(TRACEPARENT);
    }

    /** The last access log line of {@code method} that holds {@code part}, split at spaces. */
    private static String[] logLine(String method, String part) throws InterruptedException {
        return LogLines.await(dir.resolve("access.log"), l -> l.startsWith(method + " ") && l.contains(part)).split(" ");
    }

    /** A provider that keeps the server span and the request headers of the last call it served. */
    private static final class Recording extends EchoServiceImpl {

        volatile SofaTracerSpanContext span;
        volatile Map<?, ?> headers;

        @Override
        public String echo(String message) {
            SofaTracerSpan current = SofaTraceContextHolder.getSofaTraceContext().getCurrentSpan();
            span = current.getSofaTracerSpanContext();
            headers = (Map<?, ?>) RpcInvokeContext.getContext().get("request_header_key");
            return message;
        }
    }
}
