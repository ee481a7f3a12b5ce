package io.tollgate.server.drain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alipay.remoting.BizContext;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.RpcResponseFuture;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.protocol.SyncUserProcessor;
import com.google.common.util.concurrent.ListenableFuture;
import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.micrometer.core.instrument.Counter;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.http2.EchoGrpc;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Draining a gateway that serves HTTP/1.1, HTTP/2 (gRPC over h2c), SOFA Bolt and Dubbo, with real clients
 * and real upstreams: long requests in flight when the drain starts all complete with their
 * answers, new connections are refused once the listeners stop accepting, {@code /ready} answers
 * 503 from the start, the gateway stops as soon as nothing is left in flight, and a stuck upstream
 * makes the drain end at its timeout.
 */
class DrainTest {

    private static final String CONFIG = """
            event_loops: 2
            drain: { timeout: ${DRAIN} }
            listeners:
              - name: http
                port: 0
                protocols: [http1, h2c]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - { match: { prefix: /test.Held/ }, route: { cluster: grpc, timeout: 60s } }
                        - { match: { prefix: / }, route: { cluster: http, timeout: 60s } }
              - name: bolt
                port: 0
                protocols: [bolt]
                filters: [ { name: fault, delay: { fixed_delay: 1s } } ]
                route_config:
                  virtual_hosts:
                    - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: bolt, timeout: 60s } } ] }
              - name: dubbo
                port: 0
                protocols: [dubbo]
                route_config:
                  virtual_hosts:
                    - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: dubbo, timeout: 60s } } ] }
            clusters:
              - name: http
                endpoints: [ { address: 127.0.0.1, port: ${HTTP} } ]
              - name: grpc
                protocol: h2
                endpoints: [ { address: 127.0.0.1, port: ${GRPC} } ]
              - name: bolt
                endpoints: [ { address: 127.0.0.1, port: ${BOLT} } ]
              - name: dubbo
                endpoints: [ { address: 127.0.0.1, port: ${DUBBO} } ]
            """;

    private static final StartedResources upstreams = new StartedResources();
    private static final AtomicInteger httpArrived = new AtomicInteger();
    private static final AtomicInteger boltArrived = new AtomicInteger();
    private static final AtomicInteger grpcArrived = new AtomicInteger();
    private static final MethodDescriptor<String, String> HOLD = EchoGrpc.method("test.Held", MethodType.UNARY, "Hold");
    private static final AtomicReference<CountDownLatch> release = new AtomicReference<>();
    private static HttpUpstream http;
    private static RpcServer bolt;
    private static int boltPort;
    private static DubboProvider dubbo;
    private static Server grpc;

    private final StartedResources started = new StartedResources();
    private final HttpClient http1Client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private TestGateway gateway;

    @BeforeAll
    static void startUpstreams() throws Exception {
        http = upstreams.add(new HttpUpstream("http").handle("/slow", exchange -> {
            httpArrived.incrementAndGet();
            hold();
            HttpUpstream.respond(exchange, 200, ("slow " + exchange.getRequestURI().getPath())
                    .getBytes(StandardCharsets.US_ASCII));
        }));
        boltPort = FreePort.pick();
        bolt = new RpcServer("127.0.0.1", boltPort, false);
        bolt.registerUserProcessor(new SyncUserProcessor<String>() {
            @Override
            public Object handleRequest(BizContext context, String request) {
                boltArrived.incrementAndGet();
                hold();
                return "echo:" + request;
            }

            @Override
            public String interest() {
                return String.class.getName();
            }
        });
        bolt.startup();
        upstreams.add(bolt::shutdown);
        dubbo = upstreams.add(DubboProvider.named("dubbo").start());
        grpc = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(ServerServiceDefinition.builder("test.Held")
                        .addMethod(HOLD, ServerCalls.asyncUnaryCall((request, response) -> {
                            grpcArrived.incrementAndGet();
                            hold();
                            response.onNext("held " + request);
                            response.onCompleted();
                        }))
                        .build())
                .build().start();
        upstreams.add(() -> grpc.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
    }

    @AfterAll
    static void stopUpstreams() {
        upstreams.close();
    }

    @BeforeEach
    void resetUpstreams() {
        httpArrived.set(0);
        boltArrived.set(0);
        grpcArrived.set(0);
        release.set(new CountDownLatch(1));
    }

    @AfterEach
    void stop() {
        release.get().countDown();
        started.close();
    }

    @Test
    void quitLetsTheLongRequestsOfEveryProtocolFinishThenStopsWithoutWaitingForTheTimeout() throws Exception {
        start("60s");
        RpcClient boltClient = boltClient();
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).async()
                .timeout(Duration.ofSeconds(30)).connect());
        int callsBefore = dubbo.service().calls();
        ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", gateway.port("http"),
                InsecureChannelCredentials.create()).build();
        started.add(() -> channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));

        CompletableFuture<HttpResponse<String>> viaHttp1 = http1Client.sendAsync(
                HttpRequest.newBuilder(gateway.uri("http", "/slow/1")).build(), HttpResponse.BodyHandlers.ofString());
        ListenableFuture<String> viaHttp2 = ClientCalls.futureUnaryCall(channel.newCall(HOLD,
                CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS)), "grpc");
        RpcResponseFuture viaBolt = boltClient.invokeWithFuture("127.0.0.1:" + gateway.port("bolt"), "bolt", 30_000);
        CompletableFuture<String> viaDubbo = consumer.async(s -> s.slow("dubbo", 2_000));
        Await.until("every request in flight at the upstreams", Duration.ofSeconds(10),
                () -> httpArrived.get() == 1 && grpcArrived.get() == 1 && boltArrived.get() == 1
                        && dubbo.service().calls() == callsBefore + 1);

        HttpResponse<String> quit = admin("POST", "/quitquitquit");
        HttpResponse<String> ready = admin("GET", "/ready");

        assertThat(quit.statusCode()).isEqualTo(200);
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(ready.body()).isEqualTo("DRAINING\n");
        for (String listener : new String[] {"http", "bolt", "dubbo"}) {
            int port = gateway.port(listener);
            assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).as(listener)
                    .isInstanceOf(ConnectException.class);
        }
        assertThat(gateway.gateway().terminated()).isNotDone();

        release.get().countDown();

        HttpResponse<String> http1 = viaHttp1.get(10, TimeUnit.SECONDS);
        assertThat(http1.statusCode()).isEqualTo(200);
        assertThat(http1.body()).isEqualTo("slow /slow/1");
        assertThat(http1.headers().firstValue("connection")).hasValue("close");
        assertThat(viaHttp2.get(10, TimeUnit.SECONDS)).isEqualTo("held grpc");
        assertThat(viaBolt.get(10_000)).isEqualTo("echo:bolt");
        assertThat(viaDubbo.get(10, TimeUnit.SECONDS)).isEqualTo("dubbo");
        gateway.gateway().terminated().get(10, TimeUnit.SECONDS);
        assertThat(count(MetricNames.SERVER_DRAIN_COMPLETED, MetricNames.TAG_TRIGGER, "quitquitquit",
                MetricNames.TAG_RESULT, "drained")).isEqualTo(1);
        assertThat(count(MetricNames.DOWNSTREAM_CX_DRAIN_TIMEOUT)).isZero();
        assertThat(count(MetricNames.DOWNSTREAM_CX_DRAIN_CLOSE, MetricNames.TAG_LISTENER, "http")).isEqualTo(2);
        assertThat(count(MetricNames.DOWNSTREAM_CX_DRAIN_CLOSE, MetricNames.TAG_LISTENER, "bolt")).isEqualTo(1);
        assertThat(count(MetricNames.DOWNSTREAM_CX_DRAIN_CLOSE, MetricNames.TAG_LISTENER, "dubbo")).isEqualTo(1);
    }

    @Test
    void aBoltCallHeldByAStreamFilterWhenTheDrainStartsStillCompletes() throws Exception {
        start("60s");
        release.get().countDown();
        RpcClient boltClient = boltClient();

        RpcResponseFuture held = boltClient.invokeWithFuture("127.0.0.1:" + gateway.port("bolt"), "held", 30_000);
        Await.until("the call held by the fault filter's delay", Duration.ofSeconds(10),
                () -> count("tollgate.filter.fault.delays") == 1);
        Drain drain = gateway.gateway().drain(DrainTrigger.DRAIN_LISTENERS, true);

        assertThat(held.get(10_000)).isEqualTo("echo:held");
        assertThat(drain.done().get(10, TimeUnit.SECONDS).result()).isEqualTo("drained");
        assertThat(boltArrived.get()).isEqualTo(1);
    }

    @Test
    void aStuckUpstreamMakesTheDrainEndAtItsTimeoutClosingWhatIsLeft() throws Exception {
        start("1s");
        CompletableFuture<HttpResponse<String>> stuck = http1Client.sendAsync(
                HttpRequest.newBuilder(gateway.uri("http", "/slow/stuck")).build(), HttpResponse.BodyHandlers.ofString());
        Await.until("the request in flight at the upstream", Duration.ofSeconds(10), () -> httpArrived.get() == 1);
        long startNanos = System.nanoTime();

        Drain drain = gateway.gateway().drain(DrainTrigger.SIGTERM, true);
        DrainOutcome outcome = drain.done().get(10, TimeUnit.SECONDS);

        assertThat(System.nanoTime() - startNanos).as("not before the timeout").isGreaterThanOrEqualTo(
                TimeUnit.SECONDS.toNanos(1));
        assertThat(outcome.result()).isEqualTo("timeout");
        assertThat(outcome.connectionsAtStart()).isEqualTo(1);
        assertThat(outcome.closedUnfinished()).isEqualTo(1);
        assertThatThrownBy(() -> stuck.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IOException.class);
        assertThat(count(MetricNames.DOWNSTREAM_CX_DRAIN_TIMEOUT, MetricNames.TAG_LISTENER, "http")).isEqualTo(1);
        assertThat(count(MetricNames.SERVER_DRAIN_COMPLETED, MetricNames.TAG_TRIGGER, "sigterm",
                MetricNames.TAG_RESULT, "timeout")).isEqualTo(1);
    }

    @Test
    void endingTheDrainAtOnceClosesWhatIsLeftWithoutWaitingForTheTimeout() throws Exception {
        start("60s");
        CompletableFuture<HttpResponse<String>> stuck = http1Client.sendAsync(
                HttpRequest.newBuilder(gateway.uri("http", "/slow/stuck")).build(), HttpResponse.BodyHandlers.ofString());
        Await.until("the request in flight at the upstream", Duration.ofSeconds(10), () -> httpArrived.get() == 1);

        CompletableFuture<Void> terminated = gateway.gateway().drainAndClose(DrainTrigger.SIGTERM);
        assertThat(terminated).isNotDone();
        gateway.gateway().endDrain();

        terminated.get(10, TimeUnit.SECONDS);
        assertThat(gateway.gateway().drains().processDrain().done().get().result()).isEqualTo("ended");
        assertThatThrownBy(() -> stuck.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
    }

    @Test
    void aListenerRemovedByAReloadDrainsWhileTheOthersAndReadinessCarryOn() throws Exception {
        start("60s");
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).async()
                .timeout(Duration.ofSeconds(30)).connect());
        int callsBefore = dubbo.service().calls();
        CompletableFuture<String> viaDubbo = consumer.async(s -> s.slow("removed", 1_000));
        Await.until("the call in flight at the provider", Duration.ofSeconds(10),
                () -> dubbo.service().calls() == callsBefore + 1);
        GatewayConfig served = gateway.gateway().snapshot().config();
        int dubboPort = gateway.port("dubbo");

        gateway.gateway().reload(served.with(served.listeners().stream().filter(l -> !l.name().equals("dubbo")).toList(),
                served.clusters()));

        assertThatThrownBy(() -> new Socket("127.0.0.1", dubboPort).close()).isInstanceOf(ConnectException.class);
        assertThat(admin("GET", "/ready").statusCode()).isEqualTo(200);
        assertThat(viaDubbo.get(10, TimeUnit.SECONDS)).isEqualTo("removed");
        Await.until("the removed listener's drain done", Duration.ofSeconds(10),
                () -> count(MetricNames.SERVER_DRAIN_COMPLETED, MetricNames.TAG_TRIGGER, "listener_removed",
                        MetricNames.TAG_RESULT, "drained") == 1);
        release.get().countDown();
        assertThat(get("/slow/after").statusCode()).isEqualTo(200);
        assertThat(serverInfoState()).isEqualTo("LIVE");
    }

    @Test
    void healthcheckFailOnlyFailsReadinessAndHealthcheckOkUndoesIt() throws Exception {
        start("60s");
        release.get().countDown();

        assertThat(admin("POST", "/healthcheck/fail").statusCode()).isEqualTo(200);
        HttpResponse<String> failing = admin("GET", "/ready");
        HttpResponse<String> served = get("/slow/served");
        String stateWhileFailing = serverInfoState();
        assertThat(admin("POST", "/healthcheck/ok").statusCode()).isEqualTo(200);

        assertThat(failing.statusCode()).isEqualTo(503);
        assertThat(stateWhileFailing).isEqualTo("DRAINING");
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(served.headers().firstValue("connection")).isEmpty();
        assertThat(admin("GET", "/ready").statusCode()).isEqualTo(200);
        assertThat(serverInfoState()).isEqualTo("LIVE");
    }

    @Test
    void drainListenersClosesIdleConnectionsAndStopsAcceptingButTheProcessStaysUp() throws Exception {
        start("60s");
        release.get().countDown();
        RpcClient boltClient = boltClient();
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        assertThat(boltClient.invokeSync("127.0.0.1:" + gateway.port("bolt"), "before", 10_000)).isEqualTo("echo:before");
        assertThat(consumer.service().echo("before")).isEqualTo("before");
        try (RawHttp idle = new RawHttp(gateway.port("http"))) {
            idle.send("GET /slow/idle HTTP/1.1\r\nHost: test\r\n\r\n");
            assertThat(idle.read().status()).isEqualTo(200);

            assertThat(admin("POST", "/drain_listeners").statusCode()).isEqualTo(200);

            assertThat(idle.closedByServer()).isTrue();
        }
        int port = gateway.port("http");
        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
        assertThat(admin("GET", "/ready").statusCode()).isEqualTo(503);
        assertThat(serverInfoState()).isEqualTo("DRAINING");
        Await.until("the drain done", Duration.ofSeconds(5),
                () -> count(MetricNames.SERVER_DRAIN_COMPLETED, MetricNames.TAG_TRIGGER, "drain_listeners") == 1);
        assertThat(gateway.gateway().terminated()).isNotDone();
        assertThat(count(MetricNames.DOWNSTREAM_CX_DRAIN_CLOSE, MetricNames.TAG_LISTENER, "http")).isEqualTo(1);
        assertThat(count(MetricNames.DOWNSTREAM_CX_DRAIN_CLOSE, MetricNames.TAG_LISTENER, "bolt")).isEqualTo(1);
        assertThat(count(MetricNames.DOWNSTREAM_CX_DRAIN_CLOSE, MetricNames.TAG_LISTENER, "dubbo")).isEqualTo(1);
    }

    @Test
    void aRequestSentOnAnIdleConnectionAsTheDrainBeginsIsServedWithConnectionClose() throws Exception {
        start("60s");
        release.get().countDown();
        try (RawHttp idle = new RawHttp(gateway.port("http"))) {
            idle.send("GET /slow/first HTTP/1.1\r\nHost: test\r\n\r\n");
            assertThat(idle.read().status()).isEqualTo(200);

            assertThat(admin("POST", "/drain_listeners").statusCode()).isEqualTo(200);
            idle.send("GET /slow/second HTTP/1.1\r\nHost: test\r\n\r\n");

            RawHttp.Response response = idle.read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("connection")).isEqualTo("close");
            assertThat(idle.closedByServer()).isTrue();
        }
        // The client sees the FIN before the gateway's close listener counts the connection: the
        // drain completes only after that count, so wait for it, then check the count is exact.
        Await.until("the drain done", Duration.ofSeconds(5),
                () -> count(MetricNames.SERVER_DRAIN_COMPLETED, MetricNames.TAG_TRIGGER, "drain_listeners") == 1);
        assertThat(count(MetricNames.DOWNSTREAM_CX_DRAIN_CLOSE, MetricNames.TAG_LISTENER, "http")).isEqualTo(1);
    }

    @Test
    void aGracefulDrainKeepsAcceptingAndClosesEachNewConnectionAfterItsResponse() throws Exception {
        start("60s");
        release.get().countDown();

        assertThat(admin("POST", "/drain_listeners?graceful").statusCode()).isEqualTo(200);

        try (RawHttp late = new RawHttp(gateway.port("http"))) {
            late.send("GET /slow/late HTTP/1.1\r\nHost: test\r\n\r\n");
            RawHttp.Response response = late.read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("connection")).isEqualTo("close");
            assertThat(late.closedByServer()).isTrue();
        }
        assertThat(admin("GET", "/ready").statusCode()).isEqualTo(503);
    }

    private void start(String drainTimeout) throws InterruptedException {
        gateway = started.add(TestGateway.start(CONFIG, Map.of("DRAIN", drainTimeout, "HTTP", http.port(),
                "GRPC", grpc.getPort(), "BOLT", boltPort, "DUBBO", dubbo.port())));
    }

    private static void hold() {
        try {
            release.get().await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A started sofa-bolt client, shut down after the test. */
    private RpcClient boltClient() {
        RpcClient client = new RpcClient();
        client.startup();
        started.add(client::shutdown);
        return client;
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http1Client.send(HttpRequest.newBuilder(gateway.uri("http", path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> admin(String method, String path) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + gateway.gateway().adminPort() + path);
        return http1Client.send(HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private String serverInfoState() throws IOException, InterruptedException {
        String body = admin("GET", "/server_info").body();
        return body.replaceAll("(?s).*\"state\" : \"([A-Z_]+)\".*", "$1");
    }

    private double count(String name, String... tags) {
        return gateway.gateway().metrics().registry().find(name).tags(tags).counters().stream()
                .mapToDouble(Counter::count).sum();
    }
}
