package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboEchoService;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.testing.TestGateway;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.dubbo.rpc.RpcException;
import org.apache.dubbo.rpc.StatusRpcException;
import org.apache.dubbo.rpc.TriRpcStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real Dubbo 3.3 Triple consumers (a direct {@code tri://} URL: HTTP/2 with prior knowledge) call
 * real Triple providers through the gateway's h2c listener and {@code h2} clusters, with nothing
 * Triple-specific in the gateway: a Triple call is a gRPC call ({@code POST /<interface>/<method>},
 * {@code content-type: application/grpc+proto}, {@code grpc-timeout}, {@code grpc-status} in
 * trailers) whose messages are Dubbo's wrapper of hessian2 bytes. It is routed by its path, and by
 * the {@code tri-service-group} and {@code tri-service-version} headers that carry the Dubbo group
 * and version.
 */
class TripleThroughGatewayTest {

    private static final String INTERFACE = DubboEchoService.class.getName();
    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: triple
                port: 0
                protocols: [http1, h2c]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - match: { prefix: /, headers: [{ name: tri-service-group, exact: blue }, { name: tri-service-version, exact: "2.0" }] }
                          route: { cluster: blue, timeout: 20s }
                        - match: { prefix: /${INTERFACE}/tagged }
                          route: { cluster: a, timeout: 20s }
                        - match: { prefix: / }
                          route: { cluster: b, timeout: 20s }
              - name: narrow
                port: 0
                protocols: [h2c]
                route_config:
                  virtual_hosts:
                    - name: other
                      domains: ["*"]
                      routes: [{ match: { prefix: /demo.OtherService/ }, route: { cluster: b } }]
            clusters:
              - name: a
                protocol: h2
                endpoints: [{ address: 127.0.0.1, port: ${A} }]
              - name: b
                protocol: h2
                endpoints: [{ address: 127.0.0.1, port: ${B} }]
              - name: blue
                protocol: h2
                endpoints: [{ address: 127.0.0.1, port: ${BLUE} }]
            """;

    private static DubboProvider a;
    private static DubboProvider b;
    private static DubboProvider blue;
    private static TestGateway gateway;
    private static DubboConsumer consumer;

    @BeforeAll
    static void start() throws Exception {
        a = DubboProvider.named("a").protocol("tri").start();
        b = DubboProvider.named("b").protocol("tri").start();
        blue = DubboProvider.named("blue").protocol("tri").group("blue").version("2.0").start();
        gateway = TestGateway.start(CONFIG,
                Map.of("INTERFACE", INTERFACE, "A", a.port(), "B", b.port(), "BLUE", blue.port()));
        consumer = DubboConsumer.to(gateway.port("triple")).protocol("tri").connect();
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable each : new AutoCloseable[] {consumer, gateway, a, b, blue}) {
            if (each != null) {
                each.close();
            }
        }
    }

    @Test
    void syncEchoIsAnsweredThroughTheGateway() {
        assertThat(consumer.service().echo("hello")).isEqualTo("hello");
    }

    @Test
    void methodPathSelectsTheProvider() {
        int aBefore = a.service().calls();
        int bBefore = b.service().calls();
        assertThat(consumer.service().tagged("hi")).isEqualTo("a:hi");
        assertThat(consumer.service().echo("elsewhere")).isEqualTo("elsewhere");
        assertThat(consumer.service().tagged("again")).isEqualTo("a:again");
        assertThat(a.service().calls() - aBefore).isEqualTo(2);
        assertThat(b.service().calls() - bBefore).isEqualTo(1);
    }

    @Test
    void groupAndVersionHeadersSelectTheProvider() {
        try (DubboConsumer toBlue = DubboConsumer.to(gateway.port("triple")).protocol("tri").group("blue")
                .version("2.0").connect()) {
            // tagged's own route would send it to a: the group route comes first
            assertThat(toBlue.service().tagged("hi")).isEqualTo("blue:hi");
        }
    }

    @Test
    void kilobyteAndMegabyteArgumentsCrossWhole() {
        byte[] kilobyte = new byte[1024];
        byte[] megabyte = new byte[1024 * 1024];
        ThreadLocalRandom.current().nextBytes(kilobyte);
        ThreadLocalRandom.current().nextBytes(megabyte);
        assertThat(consumer.service().echoBytes(kilobyte)).isEqualTo(kilobyte);
        assertThat(consumer.service().echoBytes(megabyte)).isEqualTo(megabyte);
    }

    @Test
    void providersExceptionReachesTheConsumerWithItsMessage() {
        // Triple answers an exception in-band: grpc-status 0, a tri-exception-code header and the
        // serialized exception as the message, which the gateway forwards like any answer.
        assertThatThrownBy(() -> consumer.service().fail("broken on purpose"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("broken on purpose");
    }

    @Test
    void noRouteIsAnsweredAtOnceAsUnimplemented() {
        try (DubboConsumer lost = DubboConsumer.to(gateway.port("narrow")).protocol("tri")
                .timeout(Duration.ofSeconds(20)).connect()) {
            long start = System.nanoTime();
            // the gateway's trailers-only answer, grpc-status 12 and grpc-message no_route
            assertThatThrownBy(() -> lost.service().echo("anyone?"))
                    .isInstanceOf(RpcException.class)
                    .hasMessageContaining("UNIMPLEMENTED : no_route")
                    .rootCause()
                    .isInstanceOfSatisfying(StatusRpcException.class,
                            e -> assertThat(e.getStatus().code).isEqualTo(TriRpcStatus.Code.UNIMPLEMENTED));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        }
        assertThat(gateway.count("tollgate.downstream.rq.error", "listener", "narrow", "reason", "no_route"))
                .isEqualTo(1);
    }
}
