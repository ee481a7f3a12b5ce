package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.remoting.BizContext;
import com.alipay.remoting.Connection;
import com.alipay.remoting.exception.RemotingException;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.RpcResponseFuture;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.exception.InvokeTimeoutException;
import com.alipay.remoting.rpc.protocol.SyncUserProcessor;
import io.netty.channel.ChannelOption;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One of two SOFA Bolt providers dies: under the load of eight callers, the calls it held may
 * fail, each answered at once with a Bolt status (never left to the caller's timeout), and every
 * other call is served by the survivor; calls that find the dead provider's connect refused were
 * never sent, and go to the survivor without taking a retry.
 */
class BoltHostDeathTest {

    private static final String CONFIG = GatewayYaml.gateway(1, """
            name: bolt
            protocols: [bolt]
            """, """
            - match: { prefix: / }
              route:
                cluster: providers
                timeout: 5s
                retry_policy: { retry_on: [connect-failure, reset], num_retries: 2 }
            """, """
            clusters:
              - name: providers
                endpoints: [{ address: 127.0.0.1, port: ${A} }, { address: 127.0.0.1, port: ${B} }]
                health_check: { type: tcp, interval: 500ms, timeout: 200ms }
            """);
    private static final int CALLERS = 8;

    private final List<RpcServer> servers = new ArrayList<>();
    private final Map<String, AtomicInteger> served = Map.of("a", new AtomicInteger(), "b", new AtomicInteger());
    private RpcClient client;
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (client != null) {
            client.shutdown();
        }
        if (gateway != null) {
            gateway.close();
        }
        for (RpcServer server : servers) {
            server.shutdown();
        }
    }

    @Test
    void callersLoseAtMostTheCallsTheDeadProviderHeldAndEachIsAnswered() throws Exception {
        String address = start();
        RpcServer a = servers.get(0);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger ok = new AtomicInteger();
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        Queue<String> unanswered = new ConcurrentLinkedQueue<>();
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        CountDownLatch finished = new CountDownLatch(CALLERS);
        for (int c = 0; c < CALLERS; c++) {
            callers.execute(() -> {
                try {
                    while (running.get()) {
                        try {
                            client.invokeSync(address, "call", 3000);
                            ok.incrementAndGet();
                        } catch (InvokeTimeoutException e) {
                            unanswered.add(e.toString());
                        } catch (RemotingException e) {
                            failures.add(e.toString());
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    finished.countDown();
                }
            });
        }
        Duration limit = Duration.ofSeconds(10);
        Await.until("both providers serving", limit, () -> served.get("a").get() > 20 && served.get("b").get() > 20);
        kill(a);
        int okAtKill = ok.get();
        Await.until("the survivor serving the load", limit, () -> ok.get() > okAtKill + 200);
        running.set(false);
        assertThat(finished.await(10, TimeUnit.SECONDS)).isTrue();
        callers.shutdown();

        assertThat(unanswered).as("calls left to the caller's timeout").isEmpty();
        assertThat(failures).as("failed calls: at most those in flight to the dead provider")
                .hasSizeLessThanOrEqualTo(CALLERS);
        assertThat(gateway.count("tollgate.downstream.rq.error", "reason", "upstream_connection_closed"))
                .as("each failed call answered by the gateway with a status, counted").isEqualTo(failures.size());
    }

    @Test
    void callsNeverSentToADeadProviderAreServedByTheOtherWithoutRetries() throws Exception {
        String address = start();
        RpcServer a = servers.get(0);
        Duration limit = Duration.ofSeconds(10);
        for (int i = 0; served.get("a").get() == 0 || served.get("b").get() == 0; i++) {
            assertThat(i).as("both providers reached").isLessThan(100);
            client.invokeSync(address, "warm", 3000);
        }
        kill(a);
        Await.until("the gateway saw the dead provider's connection close", limit, () -> openConnections() == 1);

        List<RpcResponseFuture> calls = new ArrayList<>();
        for (int i = 0; i < 4 * CALLERS; i++) {
            calls.add(client.invokeWithFuture(address, "burst", 3000));
        }
        List<Object> answers = new ArrayList<>();
        for (RpcResponseFuture call : calls) {
            answers.add(call.get(3000));
        }

        assertThat(answers).as("every call, whichever host it was sent to first").containsOnly("b");
        assertThat(gateway.count("tollgate.upstream.rq.retry", "cluster", "providers")).isZero();
    }

    /** Starts providers {@code a} and {@code b}, the gateway and the client; returns the gateway's address. */
    private String start() throws Exception {
        RpcServer a = provider("a");
        RpcServer b = provider("b");
        gateway = TestGateway.start(CONFIG, Map.of("A", a.port(), "B", b.port()));
        client = new RpcClient();
        client.startup();
        return "127.0.0.1:" + gateway.port("bolt");
    }

    /** Kills {@code provider} as a crash would: no new connection accepted, every open one reset. */
    private void kill(RpcServer provider) {
        List<Connection> open = new ArrayList<>();
        provider.getConnectionManager().getAll().values().forEach(open::addAll);
        assertThat(open).as("the gateway's connections to the provider").isNotEmpty();
        for (Connection connection : open) {
            connection.getChannel().config().setOption(ChannelOption.SO_LINGER, 0);
        }
        servers.remove(provider);
        provider.shutdown();
        for (Connection connection : open) {
            connection.getChannel().close().syncUninterruptibly();
        }
    }

    private double openConnections() {
        return gateway.gateway().metrics().registry().find("tollgate.upstream.cx.active").tag("cluster", "providers")
                .gauge().value();
    }

    private RpcServer provider(String name) throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        RpcServer server = new RpcServer("127.0.0.1", port, true);
        server.registerUserProcessor(new SyncUserProcessor<String>() {
            @Override
            public Object handleRequest(BizContext context, String request) throws InterruptedException {
                Thread.sleep(2);
                served.get(name).incrementAndGet();
                return name;
            }

            @Override
            public String interest() {
                return String.class.getName();
            }
        });
        server.startup();
        servers.add(server);
        return server;
    }
}
