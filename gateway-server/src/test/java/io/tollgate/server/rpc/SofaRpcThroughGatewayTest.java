package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alipay.sofa.rpc.common.RpcConstants;
import com.alipay.sofa.rpc.config.ConsumerConfig;
import com.alipay.sofa.rpc.config.ProviderConfig;
import com.alipay.sofa.rpc.config.ServerConfig;
import com.alipay.sofa.rpc.context.RpcInvokeContext;
import com.alipay.sofa.rpc.core.exception.SofaRpcException;
import com.alipay.sofa.rpc.core.exception.SofaTimeOutException;
import com.alipay.sofa.rpc.core.invoke.SofaResponseCallback;
import com.alipay.sofa.rpc.core.request.RequestBase;
import com.alipay.sofa.rpc.message.ResponseFuture;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real SOFARPC 5.13 consumer calls a real SOFARPC provider through the gateway over Bolt
 * (hessian2, direct URL, no registry), and must not tell the difference, errors included.
 */
class SofaRpcThroughGatewayTest {

    private static final String CONFIG = """
            listeners:
              - name: bolt
                port: 0
                protocols: [bolt]
                access_log: { path: "${LOG}" }
                route_config:
                  virtual_hosts:
                    - name: echo
                      domains: ["io.tollgate.server.rpc.EchoService:1.0"]
                      routes:
                        - name: echo-slow
                          match: { prefix: "/io.tollgate.server.rpc.EchoService:1.0/slow" }
                          route: { cluster: provider, timeout: 300ms }
                        - name: echo
                          match: { prefix: / }
                          route: { cluster: provider, timeout: 10s }
                    - name: held
                      domains: ["io.tollgate.server.rpc.HeldService:1.0"]
                      routes:
                        - name: held
                          match: { prefix: / }
                          route: { cluster: held, timeout: 10s }
            clusters:
              - name: provider
                endpoints: [{ address: 127.0.0.1, port: ${PROVIDER} }]
              - name: held
                endpoints: [{ address: 127.0.0.1, port: ${HELD} }]
            """;

    private static final EchoServiceImpl provided = new EchoServiceImpl();
    private static final List<ConsumerConfig<?>> consumers = new ArrayList<>();
    private static EventLoopGroup group;
    private static HoldingBoltUpstream held;
    private static ProviderConfig<EchoService> provider;
    private static TestGateway gateway;
    private static EchoService sync;
    private static Path accessLog;

    @BeforeAll
    static void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        held = new HoldingBoltUpstream(group, true);
        int providerPort = FreePort.pick();
        ServerConfig server = new ServerConfig().setProtocol("bolt").setHost("127.0.0.1").setBoundHost("127.0.0.1")
                .setPort(providerPort).setDaemon(true);
        provider = new ProviderConfig<EchoService>().setInterfaceId(EchoService.class.getName()).setRef(provided)
                .setServer(server).setRegister(false);
        provider.export();
        accessLog = Files.createTempFile("bolt-access", ".log");
        gateway = TestGateway.start(CONFIG, Map.of("PROVIDER", providerPort, "HELD", held.port(), "LOG", accessLog));
        sync = refer(EchoService.class, RpcConstants.INVOKER_TYPE_SYNC, 5000, null);
    }

    @AfterAll
    static void stop() {
        provided.releaseSlow.countDown();
        consumers.forEach(ConsumerConfig::unRefer);
        if (gateway != null) {
            gateway.close();
        }
        if (provider != null) {
            provider.unExport();
            provider.getServer().get(0).destroy();
        }
        held.close();
        accessLog.toFile().delete();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void syncCallReturnsTheProvidersAnswer() {
        assertThat(sync.echo("hello")).isEqualTo("hello");
    }

    @Test
    void accessLogHasALinePerCallWithServiceAndMethod() {
        sync.echo("logged");
        String expected = "\"echo /io.tollgate.server.rpc.EchoService:1.0/echo BOLT/1\" 200 - ";
        assertThat(Conditions.within(Duration.ofSeconds(5), () -> read(accessLog).contains(expected))).isTrue();
        assertThat(read(accessLog)).contains("\"io.tollgate.server.rpc.EchoService:1.0\"");
    }

    @Test
    void routedCallsCountPerServiceAndMethodAndUnknownServicesMakeNoSeries() {
        sync.echo("counted");
        assertThatThrownBy(() -> sync.fail("counted failure")).isInstanceOf(IllegalStateException.class);
        UnknownService unknown = refer(UnknownService.class, RpcConstants.INVOKER_TYPE_SYNC, 10_000, null);
        assertThatThrownBy(() -> unknown.anything("uncounted")).isInstanceOf(SofaRpcException.class);

        String service = "io.tollgate.server.rpc.EchoService:1.0";
        assertThat(gateway.count("tollgate.rpc.rq", "listener", "bolt", "service", service, "method", "echo",
                "status_class", "2xx")).isPositive();
        assertThat(gateway.count("tollgate.rpc.rq", "service", service, "method", "fail", "status_class", "2xx"))
                .isPositive();
        assertThat(gateway.gateway().metrics().registry().find("tollgate.rpc.rq")
                .tag("service", UnknownService.class.getName() + ":1.0").counters()).isEmpty();
    }

    @Test
    void kilobyteAndMegabytePayloadsArriveWhole() {
        String kilobyte = "k".repeat(1024);
        String megabyte = "m".repeat(1024 * 1024);
        assertThat(sync.echo(kilobyte)).isEqualTo(kilobyte);
        assertThat(sync.echo(megabyte)).isEqualTo(megabyte);
    }

    @Test
    void onewayCallReachesTheProvider() throws InterruptedException {
        EchoService oneway = refer(EchoService.class, RpcConstants.INVOKER_TYPE_ONEWAY, 5000, null);
        oneway.record("fire and forget");
        assertThat(provided.recorded.poll(5, TimeUnit.SECONDS)).isEqualTo("fire and forget");
    }

    @Test
    void futureCallCompletes() throws Exception {
        EchoService future = refer(EchoService.class, RpcConstants.INVOKER_TYPE_FUTURE, 5000, null);
        assertThat(future.echo("later")).isNull();
        ResponseFuture<?> response = RpcInvokeContext.getContext().getFuture();
        assertThat(response.get(5, TimeUnit.SECONDS)).isEqualTo("later");
    }

    @Test
    void callbackCallIsAnswered() throws Exception {
        CompletableFuture<Object> answer = new CompletableFuture<>();
        EchoService callback = refer(EchoService.class, RpcConstants.INVOKER_TYPE_CALLBACK, 5000,
                new SofaResponseCallback<Object>() {
                    @Override
                    public void onAppResponse(Object appResponse, String methodName, RequestBase request) {
                        answer.complete(appResponse);
                    }

                    @Override
                    public void onAppException(Throwable throwable, String methodName, RequestBase request) {
                        answer.completeExceptionally(throwable);
                    }

                    @Override
                    public void onSofaException(SofaRpcException e, String methodName, RequestBase request) {
                        answer.completeExceptionally(e);
                    }
                });
        callback.echo("called back");
        assertThat(answer.get(5, TimeUnit.SECONDS)).isEqualTo("called back");
    }

    @Test
    void thousandConcurrentCallsFromOneConsumerAreCorrelated() throws Exception {
        EchoService future = refer(EchoService.class, RpcConstants.INVOKER_TYPE_FUTURE, 10_000, null);
        List<ResponseFuture<?>> responses = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            future.echo("message-" + i);
            responses.add(RpcInvokeContext.getContext().getFuture());
        }
        for (int i = 0; i < 1000; i++) {
            assertThat(responses.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("message-" + i);
        }
    }

    @Test
    void providerExceptionReachesTheConsumer() {
        assertThatThrownBy(() -> sync.fail("broken on purpose"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("broken on purpose");
    }

    @Test
    void slowProviderIsAnsweredWithTimeoutStatusByTheGateway() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> sync.slow("too slow")).isInstanceOf(SofaTimeOutException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        assertThat(gateway.count("tollgate.upstream.rq.timeout", "cluster", "provider")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void unknownServiceFailsAtOnceWithNoProcessor() {
        UnknownService unknown = refer(UnknownService.class, RpcConstants.INVOKER_TYPE_SYNC, 10_000, null);
        long start = System.nanoTime();
        assertThatThrownBy(() -> unknown.anything("anyone?")).isInstanceOf(SofaRpcException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        assertThat(gateway.count("tollgate.downstream.rq.error", "reason", "no_route")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void killedUpstreamFailsEveryCallInFlightWithConnectionClosedAtOnce() throws Exception {
        HeldService future = refer(HeldService.class, RpcConstants.INVOKER_TYPE_FUTURE, 20_000, null);
        List<ResponseFuture<?>> inFlight = new ArrayList<>();
        int before = held.requests();
        for (int i = 0; i < 3; i++) {
            future.hold("held-" + i);
            inFlight.add(RpcInvokeContext.getContext().getFuture());
        }
        assertThat(Conditions.within(Duration.ofSeconds(5), () -> held.requests() == before + 3)).isTrue();
        long start = System.nanoTime();
        held.closeConnections();
        for (ResponseFuture<?> call : inFlight) {
            assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS))
                    .hasMessageContaining("onnection closed");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    private static <T> T refer(Class<T> type, String invokeType, int timeoutMillis, SofaResponseCallback<?> callback) {
        ConsumerConfig<T> config = new ConsumerConfig<T>()
                .setInterfaceId(type.getName())
                .setProtocol("bolt")
                .setDirectUrl("bolt://127.0.0.1:" + gateway.port("bolt"))
                .setRegister(false)
                .setInvokeType(invokeType)
                .setTimeout(timeoutMillis)
                .setRepeatedReferLimit(8);
        if (callback != null) {
            config.setOnReturn(callback);
        }
        synchronized (consumers) {
            consumers.add(config);
        }
        return config.refer();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
