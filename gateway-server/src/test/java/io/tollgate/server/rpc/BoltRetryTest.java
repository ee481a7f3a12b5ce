package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.remoting.BizContext;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.protocol.SyncUserProcessor;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bolt retries over real sockets: a real sofa-bolt provider and a host that fails (refuses
 * connections, answers busy, resets, or never answers) behind the gateway, balanced in turn; the
 * route's retry policy sends a failed attempt to the other host, so the caller only sees success,
 * unless the cluster's retry limit says no.
 */
class BoltRetryTest {

    private static final String CONFIG = """
            listeners:
              - name: bolt
                port: 0
                protocols: [bolt]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - match: { prefix: / }
                          route:
                            cluster: providers
                            timeout: 5s
                            retry_policy: ${POLICY}
            clusters:
              - name: providers
                lb_policy: round_robin
                circuit_breakers: ${BREAKERS}
                endpoints: [{ address: 127.0.0.1, port: ${FAILING} }, { address: 127.0.0.1, port: ${HEALTHY} }]
            """;
    private static final int CALLS = 6;

    private final List<AutoCloseable> closeLast = new ArrayList<>();
    private EventLoopGroup group;
    private RpcServer healthy;
    private RpcClient client;
    private TestGateway gateway;

    @BeforeEach
    void startProvider() throws IOException {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        healthy = new RpcServer("127.0.0.1", FreePort.pick(), false);
        healthy.registerUserProcessor(new SyncUserProcessor<String>() {
            @Override
            public Object handleRequest(BizContext context, String request) {
                return "healthy:" + request;
            }

            @Override
            public String interest() {
                return String.class.getName();
            }
        });
        healthy.startup();
        client = new RpcClient();
        client.startup();
    }

    @AfterEach
    void stop() throws Exception {
        client.shutdown();
        if (gateway != null) {
            gateway.close();
        }
        healthy.shutdown();
        for (AutoCloseable closeable : closeLast) {
            closeable.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void aHostThatRefusesConnectionsIsRetriedOnTheOtherAndEveryCallSucceeds() throws Exception {
        start("{ retry_on: [connect-failure], num_retries: 2, retry_back_off: { base_interval: 1ms } }", "{}",
                FreePort.pick());

        callsAllSucceed();

        assertThat(gateway.count("tollgate.upstream.rq.redispatch", "cluster", "providers"))
                .as("never sent, so moved without a retry, once per refused connect").isPositive()
                .isEqualTo(gateway.count("tollgate.upstream.cx.connect_fail", "cluster", "providers"));
        assertThat(retries()).isZero();
    }

    @Test
    void aBusyAnswerIsRetriedOnTheOtherHostAndNeverReachesTheCaller() throws Exception {
        AnsweringBoltUpstream busy = failing(AnsweringBoltUpstream.status(BoltStatus.SERVER_THREADPOOL_BUSY));
        start("{ retry_on: [bolt-busy], num_retries: 2, retry_back_off: { base_interval: 1ms } }", "{}", busy.port());

        callsAllSucceed();

        assertThat(busy.answered()).isPositive();
        assertThat(retries()).isEqualTo(busy.answered());
        assertThat(gateway.count("tollgate.upstream.rq.retry_success", "cluster", "providers"))
                .isEqualTo(busy.answered());
    }

    @Test
    void aConnectionResetBeforeTheResponseIsRetriedOnTheOtherHost() throws Exception {
        AnsweringBoltUpstream resetting = failing(AnsweringBoltUpstream.closing());
        start("{ retry_on: [reset], num_retries: 2, retry_back_off: { base_interval: 1ms } }", "{}",
                resetting.port());

        callsAllSucceed();

        assertThat(resetting.answered()).isPositive();
        assertThat(retries()).isEqualTo(resetting.answered());
    }

    @Test
    void aTimeoutAnswerIsRetriedUnderBoltTimeout() throws Exception {
        AnsweringBoltUpstream timingOut = failing(AnsweringBoltUpstream.status(BoltStatus.TIMEOUT));
        start("{ retry_on: [bolt-timeout], num_retries: 1, retry_back_off: { base_interval: 1ms } }", "{}",
                timingOut.port());

        callsAllSucceed();

        assertThat(retries()).isEqualTo(timingOut.answered()).isPositive();
    }

    @Test
    void anAttemptPastThePerTryTimeoutIsRetriedOnTheOtherHost() throws Exception {
        HoldingBoltUpstream silent = new HoldingBoltUpstream(group, true);
        closeLast.add(silent);
        start("{ retry_on: [bolt-timeout], num_retries: 1, per_try_timeout: 300ms, "
                + "retry_back_off: { base_interval: 1ms } }", "{}", silent.port());
        assertThat(client.invokeSync("127.0.0.1:" + healthy.port(), "warm-up", 5000))
                .as("the provider answers its first call, the slowest, within the per-try timeout later")
                .isEqualTo("healthy:warm-up");

        callsAllSucceed();

        assertThat(silent.requests()).isPositive();
        assertThat(gateway.count("tollgate.upstream.rq.timeout", "cluster", "providers")).isEqualTo(silent.requests());
        assertThat(retries()).isEqualTo(silent.requests());
    }

    @Test
    void retriesStopAtTheClusterRetryLimitAndTheBusyAnswerReachesTheCaller() throws Exception {
        AnsweringBoltUpstream busy = failing(AnsweringBoltUpstream.status(BoltStatus.SERVER_THREADPOOL_BUSY));
        start("{ retry_on: [bolt-busy], num_retries: 3, retry_back_off: { base_interval: 1ms } }",
                "{ thresholds: [{ priority: default, max_retries: 0 }] }", busy.port());
        int busyAnswers = 0;
        try (RawBoltClient raw = new RawBoltClient(group, gateway.port("bolt"))) {
            for (int id = 1; id <= 4; id++) {
                raw.send(BoltFrames.request(id, "any.Service:1.0", "call " + id));
                RawBoltClient.Received answer = raw.next(5000);
                assertThat(answer).isNotNull();
                assertThat(answer.requestId()).isEqualTo(id);
                if (answer.status() == BoltStatus.SERVER_THREADPOOL_BUSY.code()) {
                    busyAnswers++;
                }
            }
        }

        assertThat(busyAnswers).as("every busy answer reached the caller").isPositive().isEqualTo(busy.answered());
        assertThat(gateway.count("tollgate.upstream.rq.retry_overflow", "cluster", "providers")).isEqualTo(busyAnswers);
        assertThat(retries()).isZero();
    }

    private void callsAllSucceed() throws Exception {
        String address = "127.0.0.1:" + gateway.port("bolt");
        for (int i = 0; i < CALLS; i++) {
            assertThat(client.invokeSync(address, "call " + i, 5000)).isEqualTo("healthy:call " + i);
        }
    }

    private double retries() {
        return gateway.count("tollgate.upstream.rq.retry", "cluster", "providers");
    }

    private AnsweringBoltUpstream failing(AnsweringBoltUpstream.Answer failure) throws InterruptedException {
        AnsweringBoltUpstream upstream = new AnsweringBoltUpstream(group, failure);
        closeLast.add(upstream);
        return upstream;
    }

    private void start(String policy, String breakers, int failingPort) throws InterruptedException {
        gateway = TestGateway.start(CONFIG, Map.of("POLICY", policy, "BREAKERS", breakers, "FAILING", failingPort,
                "HEALTHY", healthy.port()));
    }
}
