package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.remoting.BizContext;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.protocol.SyncUserProcessor;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.GatewayExtension;
import io.tollgate.server.testing.RawUpstream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@code mirror} filter on each RPC protocol with real clients and servers (SOFA Bolt's
 * {@link RpcClient} and {@link RpcServer}s, Apache Dubbo consumers and providers): calls copied to
 * a shadow server, and the primary's answers unaffected when the shadow is down or never answers;
 * on Bolt also oneway calls copied, and the primary's answers arriving while a held shadow has not
 * answered its copies yet.
 */
class MirrorRpcTest {

    private static final String LISTENER = """
              - name: %1$s-%2$s
                port: 0
                protocols: [%1$s]
                filters: [ { name: mirror, cluster: %1$s-%3$s } ]
                route_config: { virtual_hosts: [ { name: all, domains: ['*'], routes: [ { match: { prefix: / }, route: { cluster: %1$s-primary%4$s } } ] } ] }
            """;
    private static final String CLUSTER = """
              - name: %s
                endpoints: [ { address: 127.0.0.1, port: %d } ]
            """;

    /** The RPC protocols mirrored. */
    enum Rpc {
        BOLT, DUBBO;

        final String prefix = name().toLowerCase(Locale.ROOT);
    }

    private static final Queue<String> atBoltPrimary = new ConcurrentLinkedQueue<>();
    private static final Queue<String> atBoltShadow = new ConcurrentLinkedQueue<>();
    private static final Queue<String> atBoltHeld = new ConcurrentLinkedQueue<>();
    private static final CountDownLatch release = new CountDownLatch(1);
    /** The running test's Dubbo consumers by listener, closed after it (a connection that sends nothing is closed at the listener's first-frame timeout). */
    private static final Map<String, DubboConsumer> dubboClients = new HashMap<>();

    @RegisterExtension
    static final GatewayExtension gateway = new GatewayExtension();
    private static DubboProvider dubboShadow;
    private static RpcClient boltClient;

    @BeforeAll
    static void start() throws Exception {
        StringBuilder listeners = new StringBuilder("event_loops: 1\nlisteners:\n");
        StringBuilder clusters = new StringBuilder("clusters:\n");
        int silent = gateway.add(new RawUpstream(socket -> socket.getInputStream()
                .transferTo(OutputStream.nullOutputStream()))).port();
        Map<String, Integer> ports = new HashMap<>();
        ports.put("bolt-primary", server(atBoltPrimary, "primary", null).port());
        ports.put("bolt-shadow", server(atBoltShadow, "shadow", null).port());
        ports.put("bolt-held", server(atBoltHeld, "held", release).port());
        ports.put("dubbo-primary", gateway.add(DubboProvider.named("primary").start()).port());
        dubboShadow = gateway.add(DubboProvider.named("shadow").start());
        ports.put("dubbo-shadow", dubboShadow.port());
        for (Rpc rpc : Rpc.values()) {
            ports.put(rpc.prefix + "-down", FreePort.pick());
            ports.put(rpc.prefix + "-silent", silent);
            listeners.append(LISTENER.formatted(rpc.prefix, "shadowed", "shadow", ""))
                    .append(LISTENER.formatted(rpc.prefix, "down", "down", ""))
                    .append(LISTENER.formatted(rpc.prefix, "silent", "silent", ", timeout: 1s"));
        }
        listeners.append(LISTENER.formatted("bolt", "held", "held", ""));
        ports.forEach((name, port) -> clusters.append(CLUSTER.formatted(name, port)));
        gateway.start(listeners.toString() + clusters, Map.of());
        boltClient = new RpcClient();
        boltClient.startup();
        gateway.add(boltClient::shutdown);
        gateway.add(release::countDown);
    }

    @AfterEach
    void forgetDubboClients() {
        dubboClients.clear();
    }

    @ParameterizedTest
    @EnumSource(Rpc.class)
    void callsAreCopiedToTheShadow(Rpc rpc) throws Exception {
        String shadow = rpc.prefix + "-shadow";
        int copies = atShadow(rpc);
        double sent = mirrorSent(shadow);
        double requests = gateway.gateway().count("tollgate.upstream.rq", "cluster", shadow);
        for (int i = 0; i < 5; i++) {
            assertThat(call(rpc, "shadowed", "call-" + i)).isEqualTo("primary:call-" + i);
        }

        Await.until("5 copies at the shadow", Duration.ofSeconds(5), () -> atShadow(rpc) == copies + 5);
        Await.until("5 copies counted sent", Duration.ofSeconds(5), () -> mirrorSent(shadow) == sent + 5);
        assertThat(gateway.gateway().count("tollgate.upstream.rq", "cluster", shadow)).isEqualTo(requests + 5);
    }

    /** A oneway call is copied too; the shadow's copy is not a request of the cluster (no answer to count). */
    @Test
    void boltOnewayCallsAreCopiedToTheShadow() throws Exception {
        String address = address("bolt-shadowed");
        double requests = gateway.gateway().count("tollgate.upstream.rq", "cluster", "bolt-shadow");
        double sent = mirrorSent("bolt-shadow");
        assertThat(boltClient.invokeSync(address, "two-way", 3000)).isEqualTo("primary:two-way");
        boltClient.oneway(address, "oneway");

        Await.until("both copies at the shadow", Duration.ofSeconds(5),
                () -> atBoltShadow.contains("two-way") && atBoltShadow.contains("oneway"));
        Await.until("the oneway call at the primary", Duration.ofSeconds(5), () -> atBoltPrimary.contains("oneway"));
        Await.until("both copies counted sent", Duration.ofSeconds(5), () -> mirrorSent("bolt-shadow") == sent + 2);
        assertThat(gateway.gateway().count("tollgate.upstream.rq", "cluster", "bolt-shadow")).isEqualTo(requests + 1);
    }

    @ParameterizedTest
    @EnumSource(Rpc.class)
    void shadowDownLeavesEveryAnswerIntact(Rpc rpc) throws Exception {
        for (int i = 0; i < 10; i++) {
            assertThat(call(rpc, "down", "down-" + i)).isEqualTo("primary:down-" + i);
        }
        Await.until("10 failed copies", Duration.ofSeconds(5), () -> mirrorFailed(rpc.prefix + "-down") == 10);
    }

    @ParameterizedTest
    @EnumSource(Rpc.class)
    void shadowThatNeverAnswersLeavesEveryAnswerIntactAndTimesOut(Rpc rpc) throws Exception {
        for (int i = 0; i < 10; i++) {
            assertThat(call(rpc, "silent", "silent-" + i)).isEqualTo("primary:silent-" + i);
        }
        Await.until("10 copies timed out", Duration.ofSeconds(10), () -> mirrorFailed(rpc.prefix + "-silent") == 10);
        assertThat(gateway.gateway().count("tollgate.upstream.rq.timeout", "cluster", rpc.prefix + "-silent"))
                .isEqualTo(10);
    }

    /** The shadow answers no copy until every primary answer arrived: a primary waiting for its copy would never come back. */
    @Test
    void boltPrimaryAnswersArriveBeforeTheShadowAnswers() throws Exception {
        for (int i = 0; i < 10; i++) {
            assertThat(boltClient.invokeSync(address("bolt-held"), "held-" + i, 3000)).isEqualTo("primary:held-" + i);
        }
        Await.until("the copies at the held shadow", Duration.ofSeconds(5), () -> atBoltHeld.size() == 10);
        assertThat(mirrorSent("bolt-held")).isZero();

        release.countDown();

        Await.until("the copies answered", Duration.ofSeconds(5), () -> mirrorSent("bolt-held") == 10);
    }

    /** A two-way call of {@code message} through the protocol's listener {@code listener}; its answer. */
    private static String call(Rpc rpc, String listener, String message) throws Exception {
        return switch (rpc) {
            case BOLT -> (String) boltClient.invokeSync(address("bolt-" + listener), message, 3000);
            case DUBBO -> dubboClients.computeIfAbsent(listener,
                    l -> gateway.add(DubboConsumer.to(gateway.port("dubbo-" + l)).connect())).service().tagged(message);
        };
    }

    private static int atShadow(Rpc rpc) {
        return switch (rpc) {
            case BOLT -> atBoltShadow.size();
            case DUBBO -> dubboShadow.service().calls();
        };
    }

    private static double mirrorSent(String cluster) {
        return gateway.gateway().count("tollgate.filter.mirror.sent", "cluster", cluster);
    }

    private static double mirrorFailed(String cluster) {
        return gateway.gateway().count("tollgate.filter.mirror.failed", "cluster", cluster);
    }

    private static String address(String listener) {
        return "127.0.0.1:" + gateway.port(listener);
    }

    /** A Bolt server answering {@code name:request}, after {@code gate} opens when there is one; stopped with the class. */
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
        gateway.add(server::shutdown);
        return server;
    }
}
