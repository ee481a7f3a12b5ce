package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

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
 * The {@code trace} filter on Dubbo between a real Dubbo consumer and a real Dubbo provider: trace
 * context sent as attachments reaches the provider with the gateway's span, a call without one
 * starts a trace, and without the filter the attachments arrive as sent.
 */
class DubboTraceTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";
    private static final String CONFIG = """
            listeners:
              - name: traced
                port: 0
                protocols: [dubbo]
                filters: [{ name: trace, new_trace_formats: [w3c, sofa] }]
                access_log: { path: "${LOG}", format: "%REQ(x-test)% %TRACE_ID% %SPAN_ID%" }
                route_config:
                  virtual_hosts:
                    - { name: echo, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: main } }] }
              - name: plain
                port: 0
                protocols: [dubbo]
                route_config:
                  virtual_hosts:
                    - { name: echo, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: main } }] }
            clusters:
              - name: main
                endpoints: [{ address: 127.0.0.1, port: ${MAIN} }]
            """;

    @TempDir
    static Path dir;
    private static final StartedResources started = new StartedResources();
    private static TestGateway gateway;
    private static DubboConsumer traced;
    private static DubboConsumer plain;

    @BeforeAll
    static void start() throws Exception {
        DubboProvider main = started.add(DubboProvider.named("main").start());
        gateway = started.add(TestGateway.start(CONFIG, Map.of("MAIN", main.port(), "LOG", dir.resolve("access.log"))));
        traced = started.add(DubboConsumer.to(gateway.port("traced")).connect());
        plain = started.add(DubboConsumer.to(gateway.port("plain")).connect());
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void traceparentAttachmentGetsTheGatewaysSpanAsParent() throws Exception {
        RpcContext.getClientAttachment().setAttachment("x-test", "w3c");
        RpcContext.getClientAttachment().setAttachment("traceparent", TRACEPARENT);
        String seen = traced.service().attachment("traceparent");

        String[] logged = logLine("w3c");
        assertThat(logged[1]).isEqualTo(TRACE_ID);
        assertThat(seen).isEqualTo("00-" + TRACE_ID + "-" + logged[2] + "-01");
    }

    @Test
    void sofaRpcIdAttachmentBecomesItsChild() {
        RpcContext.getClientAttachment().setAttachment("rpc_trace_context.sofaTraceId", "0a1b2c3d1700000000001");
        RpcContext.getClientAttachment().setAttachment("rpc_trace_context.sofaRpcId", "0.2");
        assertThat(traced.service().attachment("rpc_trace_context.sofaRpcId")).isEqualTo("0.2.1");
    }

    @Test
    void aCallWithoutContextStartsATrace() throws Exception {
        RpcContext.getClientAttachment().setAttachment("x-test", "new");
        String seen = traced.service().attachment("traceparent");

        String[] logged = logLine("new");
        assertThat(seen).isEqualTo("00-" + logged[1] + "-" + logged[2] + "-01");
        RpcContext.getClientAttachment().setAttachment("x-test", "new-sofa");
        assertThat(traced.service().attachment("rpc_trace_context.sofaRpcId")).isEqualTo("0.1");
    }

    @Test
    void withoutTheFilterAttachmentsArriveAsSent() {
        RpcContext.getClientAttachment().setAttachment("traceparent", TRACEPARENT);
        assertThat(plain.service().attachment("traceparent")).isEqualTo(TRACEPARENT);
        RpcContext.getClientAttachment().setAttachment("rpc_trace_context.sofaRpcId", "0.2");
        assertThat(plain.service().attachment("rpc_trace_context.sofaRpcId")).isEqualTo("0.2");
    }

    private static String[] logLine(String tag) throws InterruptedException {
        return LogLines.await(dir.resolve("access.log"), l -> l.startsWith(tag + " ")).split(" ");
    }
}
