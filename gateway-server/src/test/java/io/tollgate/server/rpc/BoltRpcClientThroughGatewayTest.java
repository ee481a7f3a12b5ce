package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.remoting.BizContext;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.RpcResponseFuture;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.protocol.SyncUserProcessor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sofa-bolt {@link RpcClient} against a sofa-bolt {@link RpcServer} through the gateway, on a
 * port that also serves HTTP/1.1, and raw Bolt clients doing what real clients do not.
 */
class BoltRpcClientThroughGatewayTest {

    private static final String CONFIG = """
            listeners:
              - name: shared
                port: 0
                protocols: [http1, bolt]
                bolt: { max_frame_bytes: 65536 }
                route_config:
                  virtual_hosts:
                    - name: http
                      domains: ["127.0.0.1"]
                      routes:
                        - match: { prefix: / }
                          direct_response: { status: 200, body: "http here" }
                    - name: dead
                      domains: ["dead.service:1.0"]
                      routes:
                        - match: { prefix: / }
                          route: { cluster: dead }
                    - name: silent
                      domains: ["silent.service:1.0"]
                      routes:
                        - match: { prefix: / }
                          route: { cluster: silent }
                    - name: alive
                      domains: ["alive.service:1.0"]
                      routes:
                        - match: { prefix: / }
                          route: { cluster: alive }
                    - name: rpc
                      domains: ["*"]
                      routes:
                        - match: { prefix: / }
                          route: { cluster: rpc }
            clusters:
              - name: rpc
                endpoints: [{ address: 127.0.0.1, port: ${RPC} }]
              - name: dead
                max_pending_requests: 1
                endpoints: [{ address: 127.0.0.1, port: ${DEAD} }]
              - name: silent
                heartbeat_interval: 200ms
                endpoints: [{ address: 127.0.0.1, port: ${SILENT} }]
              - name: alive
                heartbeat_interval: 1s
                endpoints: [{ address: 127.0.0.1, port: ${ALIVE} }]
            """;

    private static final Queue<String> received = new ConcurrentLinkedQueue<>();
    private static EventLoopGroup group;
    private static RpcServer server;
    private static RpcClient client;
    private static HoldingBoltUpstream silent;
    private static HoldingBoltUpstream alive;
    private static TestGateway gateway;
    private static String address;

    @BeforeAll
    static void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        silent = new HoldingBoltUpstream(group, false);
        alive = new HoldingBoltUpstream(group, true);
        int rpcPort = FreePort.pick();
        server = new RpcServer("127.0.0.1", rpcPort, false);
        server.registerUserProcessor(new SyncUserProcessor<String>() {
            @Override
            public Object handleRequest(BizContext context, String request) {
                received.add(request);
                return "echo:" + request;
            }

            @Override
            public String interest() {
                return String.class.getName();
            }
        });
        server.startup();
        gateway = TestGateway.start(CONFIG, Map.of("RPC", rpcPort, "DEAD", FreePort.pick(), "SILENT", silent.port(),
                "ALIVE", alive.port()));
        address = "127.0.0.1:" + gateway.port("shared");
        client = new RpcClient();
        client.startup();
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.shutdown();
        }
        if (gateway != null) {
            gateway.close();
        }
        server.shutdown();
        silent.close();
        alive.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void invokeSyncReturnsTheServersAnswer() throws Exception {
        assertThat(client.invokeSync(address, "sync", 3000)).isEqualTo("echo:sync");
    }

    @Test
    void onewayReachesTheServer() throws Exception {
        client.oneway(address, "oneway");
        assertThat(Conditions.within(Duration.ofSeconds(5), () -> received.contains("oneway"))).isTrue();
    }

    @Test
    void invokeWithFutureCompletes() throws Exception {
        RpcResponseFuture future = client.invokeWithFuture(address, "future", 3000);
        assertThat(future.get(3000)).isEqualTo("echo:future");
    }

    @Test
    void httpAndBoltShareOnePort() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://" + address + "/")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.body()).isEqualTo("http here");
        assertThat(client.invokeSync(address, "after http", 3000)).isEqualTo("echo:after http");
    }

    @Test
    void heartbeatIsAnsweredByTheGateway() throws Exception {
        try (RawBoltClient raw = new RawBoltClient(group, gateway.port("shared"))) {
            raw.send(BoltFrames.heartbeat(7));
            assertThat(raw.next(3000)).isEqualTo(new RawBoltClient.Received(BoltFrame.Kind.HEARTBEAT_ACK, 7, 0));
        }
    }

    @Test
    void malformedFrameIsAnsweredCodecExceptionAndClosesOnlyItsConnection() throws Exception {
        try (RawBoltClient raw = new RawBoltClient(group, gateway.port("shared"))) {
            ByteBuf frame = BoltFrames.request(41, "any.service:1.0", "x");
            frame.setShort(16, -1);
            raw.send(frame);
            assertThat(raw.next(3000)).isEqualTo(
                    new RawBoltClient.Received(BoltFrame.Kind.RESPONSE, 41, BoltStatus.CODEC_EXCEPTION.code()));
            assertThat(raw.closedWithin(3000)).isTrue();
        }
        assertThat(client.invokeSync(address, "unaffected", 3000)).isEqualTo("echo:unaffected");
        assertThat(gateway.count("tollgate.downstream.rq.error", "reason", "bolt_malformed_frame")).isPositive();
    }

    @Test
    void frameOverTheLimitClosesOnlyItsConnection() throws Exception {
        try (RawBoltClient raw = new RawBoltClient(group, gateway.port("shared"))) {
            raw.send(BoltFrames.request(42, "any.service:1.0", "x".repeat(70_000)));
            assertThat(raw.next(3000)).isEqualTo(
                    new RawBoltClient.Received(BoltFrame.Kind.RESPONSE, 42, BoltStatus.CODEC_EXCEPTION.code()));
            assertThat(raw.closedWithin(3000)).isTrue();
        }
        assertThat(client.invokeSync(address, "still fine", 3000)).isEqualTo("echo:still fine");
    }

    @Test
    void unreachableUpstreamAnswersConnectionClosedAndOverflowAnswersBusy() throws Exception {
        try (RawBoltClient raw = new RawBoltClient(group, gateway.port("shared"))) {
            ByteBuf burst = BoltFrames.request(1, "dead.service:1.0", "a");
            burst = Unpooled.wrappedBuffer(burst, BoltFrames.request(2, "dead.service:1.0", "b"),
                    BoltFrames.request(3, "dead.service:1.0", "c"));
            raw.send(burst);
            assertThat(raw.next(3000)).isEqualTo(new RawBoltClient.Received(
                    BoltFrame.Kind.RESPONSE, 2, BoltStatus.SERVER_THREADPOOL_BUSY.code()));
            assertThat(raw.next(3000)).isEqualTo(new RawBoltClient.Received(
                    BoltFrame.Kind.RESPONSE, 3, BoltStatus.SERVER_THREADPOOL_BUSY.code()));
            assertThat(raw.next(3000)).isEqualTo(new RawBoltClient.Received(
                    BoltFrame.Kind.RESPONSE, 1, BoltStatus.CONNECTION_CLOSED.code()));
        }
    }

    @Test
    void upstreamThatStopsAnsweringHeartbeatsIsClosedAndItsCallsFail() throws Exception {
        try (RawBoltClient raw = new RawBoltClient(group, gateway.port("shared"))) {
            raw.send(BoltFrames.request(5, "silent.service:1.0", "hold"));
            assertThat(Conditions.within(Duration.ofSeconds(3), () -> silent.requests() == 1)).isTrue();
            assertThat(raw.next(3000)).isEqualTo(new RawBoltClient.Received(
                    BoltFrame.Kind.RESPONSE, 5, BoltStatus.CONNECTION_CLOSED.code()));
            assertThat(silent.heartbeats()).isPositive();
            assertThat(Conditions.within(Duration.ofSeconds(3), () -> silent.openConnections() == 0)).isTrue();
        }
    }

    @Test
    void upstreamThatAnswersHeartbeatsStaysConnected() throws Exception {
        try (RawBoltClient raw = new RawBoltClient(group, gateway.port("shared"))) {
            raw.send(BoltFrames.request(6, "alive.service:1.0", "hold"));
            // each heartbeat must be answered within the interval: 1 s, since the upstream's loop and
            // the gateway's may wait that long for a core on a loaded machine; a heartbeat goes out
            // only after the one before was answered, so three make two such checks
            assertThat(Conditions.within(Duration.ofSeconds(10), () -> alive.heartbeats() >= 3)).isTrue();
            assertThat(alive.openConnections()).isEqualTo(1);
            assertThat(raw.next(0)).isNull();
        }
    }
}
