package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.remoting.BizContext;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.protocol.SyncUserProcessor;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code mirror} filter with the SOFA Bolt {@link RpcClient} against SOFA Bolt
 * {@link RpcServer}s: two-way and oneway calls copied to a shadow server, and the primary's
 * answers unaffected when the shadow is down, never answers, or answers only after them.
 */
class MirrorBoltTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: shadowed
                port: 0
                protocols: [bolt]
                filters: [ { name: mirror, cluster: shadow } ]
                route_config: ${ROUTES}
              - name: down
                port: 0
                protocols: [bolt]
                filters: [ { name: mirror, cluster: down } ]
                route_config: ${ROUTES}
              - name: silent
                port: 0
                protocols: [bolt]
                filters: [ { name: mirror, cluster: silent } ]
                route_config: ${SHORT_ROUTES}
              - name: held
                port: 0
                protocols: [bolt]
                filters: [ { name: mirror, cluster: held } ]
                route_config: ${ROUTES}
            clusters:
              - name: primary
                endpoints: [ { address: 127.0.0.1, port: ${PRIMARY} } ]
              - name: shadow
                endpoints: [ { address: 127.0.0.1, port: ${SHADOW} } ]
              - name: down
                endpoints: [ { address: 127.0.0.1, port: ${DOWN} } ]
              - name: silent
                endpoints: [ { address: 127.0.0.1, port: ${SILENT} } ]
              - name: held
                endpoints: [ { address: 127.0.0.1, port: ${HELD} } ]
            """;
    private static final String ROUTES =
            "{ virtual_hosts: [ { name: all, domains: ['*'], routes: [ { match: { prefix: / }, route: { cluster: primary } } ] } ] }";

    private static final Queue<String> atPrimary = new ConcurrentLinkedQueue<>();
    private static final Queue<String> atShadow = new ConcurrentLinkedQueue<>();
    private static final Queue<String> atHeld = new ConcurrentLinkedQueue<>();
    private static final CountDownLatch release = new CountDownLatch(1);

    private static RpcServer primary;
    private static RpcServer shadow;
    private static RpcServer held;
    private static RawUpstream silent;
    private static TestGateway gateway;
    private static RpcClient client;

    @BeforeAll
    static void start() throws Exception {
        primary = server(atPrimary, "primary", null);
        shadow = server(atShadow, "shadow", null);
        held = server(atHeld, "held", release);
        silent = new RawUpstream(socket -> socket.getInputStream().transferTo(OutputStream.nullOutputStream()));
        gateway = TestGateway.start(CONFIG.replace("${ROUTES}", ROUTES)
                        .replace("${SHORT_ROUTES}", ROUTES.replace("cluster: primary", "cluster: primary, timeout: 500ms")),
                Map.of("PRIMARY", primary.port(), "SHADOW", shadow.port(), "DOWN", FreePort.pick(),
                        "SILENT", silent.port(), "HELD", held.port()));
        client = new RpcClient();
        client.startup();
    }

    @AfterAll
    static void stop() throws Exception {
        release.countDown();
        if (client != null) {
            client.shutdown();
        }
        if (gateway != null) {
            gateway.close();
        }
        primary.shutdown();
        shadow.shutdown();
        held.shutdown();
        silent.close();
    }

    @Test
    void twoWayAndOnewayCallsAreCopiedToTheShadow() throws Exception {
        String address = address("shadowed");
        assertThat(client.invokeSync(address, "two-way", 3000)).isEqualTo("primary:two-way");
        client.oneway(address, "oneway");

        Await.until("both copies at the shadow", Duration.ofSeconds(5),
                () -> atShadow.contains("two-way") && atShadow.contains("oneway"));
        Await.until("the oneway call at the primary", Duration.ofSeconds(5), () -> atPrimary.contains("oneway"));
        Await.until("both copies counted sent", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.filter.mirror.sent", "cluster", "shadow") == 2);
        assertThat(gateway.count("tollgate.upstream.rq", "cluster", "shadow")).isEqualTo(1);
    }

    @Test
    void shadowDownLeavesEveryAnswerIntact() throws Exception {
        for (int i = 0; i < 10; i++) {
            assertThat(client.invokeSync(address("down"), "down-" + i, 3000)).isEqualTo("primary:down-" + i);
        }
        Await.until("10 failed copies", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.filter.mirror.failed", "cluster", "down") == 10);
    }

    @Test
    void shadowThatNeverAnswersLeavesEveryAnswerIntactAndTimesOut() throws Exception {
        for (int i = 0; i < 10; i++) {
            assertThat(client.invokeSync(address("silent"), "silent-" + i, 3000)).isEqualTo("primary:silent-" + i);
        }
        Await.until("10 copies timed out", Duration.ofSeconds(10),
                () -> gateway.count("tollgate.filter.mirror.failed", "cluster", "silent") == 10);
        assertThat(gateway.count("tollgate.upstream.rq.timeout", "cluster", "silent")).isEqualTo(10);
    }

    /** The shadow answers no copy until every primary answer arrived: a primary waiting for its copy would never come back. */
    @Test
    void primaryAnswersArriveBeforeTheShadowAnswers() throws Exception {
        for (int i = 0; i < 10; i++) {
            assertThat(client.invokeSync(address("held"), "held-" + i, 3000)).isEqualTo("primary:held-" + i);
        }
        Await.until("the copies at the held shadow", Duration.ofSeconds(5), () -> atHeld.size() == 10);
        assertThat(gateway.count("tollgate.filter.mirror.sent", "cluster", "held")).isZero();

        release.countDown();

        Await.until("the copies answered", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.filter.mirror.sent", "cluster", "held") == 10);
    }

    private static String address(String listener) {
        return "127.0.0.1:" + gateway.port(listener);
    }

    /** A Bolt server answering {@code name:request}, after {@code gate} opens when there is one. */
    private static RpcServer server(Queue<String> received, String name, CountDownLatch gate) throws IOException {
        RpcServer server = new RpcServer("127.0.0.1", FreePort.pick(), false);
        server.registerUserProcessor(new SyncUserProcessor<String>() {
            @Override
            public Object handleRequest(BizContext context, String request) throws InterruptedException {
                received.add(request);
                if (gate != null) {
                    gate.await(20, TimeUnit.SECONDS);
                }
                return name + ":" + request;
            }

            @Override
            public String interest() {
                return String.class.getName();
            }
        });
        server.startup();
        return server;
    }
}
