package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.common.tracer.core.context.span.SofaTracerSpanContext;
import com.alipay.common.tracer.core.holder.SofaTraceContextHolder;
import com.alipay.common.tracer.core.span.SofaTracerSpan;
import com.alipay.sofa.rpc.context.RpcInvokeContext;
import io.tollgate.server.testing.GatewayExtension;
import io.tollgate.server.testing.LogLines;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.dubbo.rpc.RpcContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@code trace} filter on each RPC protocol between a real consumer and a real provider: a W3C
 * {@code traceparent} the consumer sends (a Bolt header, a Dubbo attachment) reaches the provider
 * with the gateway's span as parent, and without the filter it arrives as sent. On Bolt, with
 * SOFATracer at both ends, the provider's server span is the child of the gateway's (rpc id
 * {@code 0.1} under the consumer's {@code 0}) in the consumer's trace; on Dubbo, a SOFA rpc id
 * attachment gets a child and a call without context starts a trace.
 */
class RpcTraceTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";
    private static final String ROUTES = """
                route_config:
                  virtual_hosts:
                    - { name: echo, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: %s } }] }
            """;
    private static final String CONFIG = """
            listeners:
              - name: bolt-traced
                port: 0
                protocols: [bolt]
                filters: [{ name: trace }]
                access_log: { path: "${BOLT_LOG}", format: "%RPC_METHOD% %TRACE_ID% %SPAN_ID%" }
            """ + ROUTES.formatted("provider") + """
              - name: bolt-plain
                port: 0
                protocols: [bolt]
            """ + ROUTES.formatted("provider") + """
              - name: dubbo-traced
                port: 0
                protocols: [dubbo]
                filters: [{ name: trace, new_trace_formats: [w3c, sofa] }]
                access_log: { path: "${DUBBO_LOG}", format: "%REQ(x-test)% %TRACE_ID% %SPAN_ID%" }
            """ + ROUTES.formatted("main") + """
              - name: dubbo-plain
                port: 0
                protocols: [dubbo]
            """ + ROUTES.formatted("main") + """
            clusters:
              - name: provider
                endpoints: [{ address: 127.0.0.1, port: ${PROVIDER} }]
              - name: main
                endpoints: [{ address: 127.0.0.1, port: ${MAIN} }]
            """;

    /** The protocols traced. */
    enum Rpc {
        BOLT, DUBBO
    }

    @RegisterExtension
    static final GatewayExtension gateway = new GatewayExtension();
    @TempDir
    static Path dir;
    private static final Recording recording = new Recording();
    private static SofaRpc sofa;
    private static DubboConsumer traced;
    private static DubboConsumer plain;

    @BeforeAll
    static void start() throws Exception {
        sofa = gateway.add(new SofaRpc(recording));
        DubboProvider main = gateway.add(DubboProvider.named("main").start());
        gateway.start(CONFIG, Map.of("PROVIDER", sofa.port(), "MAIN", main.port(),
                "BOLT_LOG", dir.resolve("bolt.log"), "DUBBO_LOG", dir.resolve("dubbo.log")));
        traced = gateway.add(DubboConsumer.to(gateway.port("dubbo-traced")).connect());
        plain = gateway.add(DubboConsumer.to(gateway.port("dubbo-plain")).connect());
    }

    @ParameterizedTest
    @EnumSource(Rpc.class)
    void traceparentGetsTheGatewaysSpanAsParentAndArrivesAsSentWithoutTheFilter(Rpc rpc) throws Exception {
        String seen = sendTraceparent(rpc, true);

        String[] logged = switch (rpc) {
            case BOLT -> logLine("bolt.log", l -> l.startsWith("echo ") && l.contains(TRACE_ID));
            case DUBBO -> logLine("dubbo.log", l -> l.startsWith("w3c "));
        };
        assertThat(logged[1]).isEqualTo(TRACE_ID);
        assertThat(seen).isEqualTo("00-" + TRACE_ID + "-" + logged[2] + "-01");

        assertThat(sendTraceparent(rpc, false)).isEqualTo(TRACEPARENT);
    }

    @Test
    void sofaProvidersSpanIsAChildOfTheGatewaysInTheConsumersTrace() throws Exception {
        sofa.refer(gateway.port("bolt-traced")).echo("sofa");

        String[] logged = logLine("bolt.log", l -> l.startsWith("echo ") && l.contains(recording.span.getTraceId()));
        assertThat(recording.span.getTraceId()).isEqualTo(logged[1]);
        assertThat(recording.span.getSpanId()).isEqualTo("0.1");
        assertThat(recording.span.getParentId()).isEqualTo("0");

        sofa.refer(gateway.port("bolt-plain")).echo("sofa");
        assertThat(recording.span.getSpanId()).isEqualTo("0");
    }

    @Test
    void dubboSofaRpcIdAttachmentBecomesItsChild() {
        RpcContext.getClientAttachment().setAttachment("rpc_trace_context.sofaTraceId", "0a1b2c3d1700000000001");
        RpcContext.getClientAttachment().setAttachment("rpc_trace_context.sofaRpcId", "0.2");
        assertThat(traced.service().attachment("rpc_trace_context.sofaRpcId")).isEqualTo("0.2.1");
    }

    @Test
    void aDubboCallWithoutContextStartsATrace() throws Exception {
        RpcContext.getClientAttachment().setAttachment("x-test", "new");
        String seen = traced.service().attachment("traceparent");

        String[] logged = logLine("dubbo.log", l -> l.startsWith("new "));
        assertThat(seen).isEqualTo("00-" + logged[1] + "-" + logged[2] + "-01");
        RpcContext.getClientAttachment().setAttachment("x-test", "new-sofa");
        assertThat(traced.service().attachment("rpc_trace_context.sofaRpcId")).isEqualTo("0.1");
    }

    @Test
    void withoutTheFilterADubboSofaRpcIdArrivesAsSent() {
        RpcContext.getClientAttachment().setAttachment("rpc_trace_context.sofaRpcId", "0.2");
        assertThat(plain.service().attachment("rpc_trace_context.sofaRpcId")).isEqualTo("0.2");
    }

    /** Calls with {@link #TRACEPARENT} through the traced or the plain listener; the traceparent the provider saw. */
    private static String sendTraceparent(Rpc rpc, boolean throughFilter) {
        switch (rpc) {
            case BOLT -> {
                EchoService echo = sofa.refer(gateway.port(throughFilter ? "bolt-traced" : "bolt-plain"));
                RpcInvokeContext.getContext().addCustomHeader("traceparent", TRACEPARENT);
                echo.echo("w3c");
                return (String) recording.headers.get("traceparent");
            }
            case DUBBO -> {
                RpcContext.getClientAttachment().setAttachment("x-test", "w3c");
                RpcContext.getClientAttachment().setAttachment("traceparent", TRACEPARENT);
                return (throughFilter ? traced : plain).service().attachment("traceparent");
            }
            default -> throw new IllegalArgumentException(rpc.name());
        }
    }

    /** The last line of access log {@code file} that {@code wanted} accepts, split at spaces. */
    private static String[] logLine(String file, Predicate<String> wanted) throws InterruptedException {
        return LogLines.await(dir.resolve(file), wanted).split(" ");
    }

    /** A SOFARPC provider that keeps the server span and the request headers of the last call it served. */
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
