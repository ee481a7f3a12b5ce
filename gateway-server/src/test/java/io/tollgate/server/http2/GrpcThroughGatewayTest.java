package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.TestGateway;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * grpc-java client to the gateway (h2c, prior knowledge) to a grpc-java server (an h2 cluster):
 * the four kinds of call, big messages, many streams on one connection, statuses, deadlines,
 * cancellation both ways, and the gateway's own errors as gRPC statuses.
 */
class GrpcThroughGatewayTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: grpc
                port: 0
                protocols: [http1, h2c]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - { match: { prefix: /test.Echo/ }, route: { cluster: echo, timeout: 30s } }
                        - { match: { prefix: /test.Closed/ }, route: { cluster: closed, timeout: 30s } }
            clusters:
              - name: echo
                protocol: h2
                endpoints: [ { address: 127.0.0.1, port: ${ECHO} } ]
              - name: closed
                protocol: h2
                endpoints: [ { address: 127.0.0.1, port: ${CLOSED} } ]
            """;

    private static EchoServer echo;
    private static EchoServer closedServer;
    private static TestGateway gateway;
    private static ManagedChannel channel;

    @BeforeAll
    static void start() throws Exception {
        echo = new EchoServer();
        closedServer = new EchoServer();
        int closedPort = closedServer.port();
        closedServer.close();
        gateway = TestGateway.start(CONFIG, Map.of("ECHO", echo.port(), "CLOSED", closedPort));
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", gateway.port("grpc"), InsecureChannelCredentials.create())
                .maxInboundMessageSize(16 * 1024 * 1024)
                .build();
    }

    @AfterAll
    static void stop() throws Exception {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        gateway.close();
        echo.close();
    }

    @Test
    void unaryCallCrossesTheGateway() {
        assertThat(unary("hello", CallOptions.DEFAULT)).isEqualTo("hello");
    }

    @Test
    void clientStreamingCallCrossesTheGateway() throws Exception {
        CompletableFuture<String> result = new CompletableFuture<>();
        StreamObserver<String> requests = ClientCalls.asyncClientStreamingCall(
                channel.newCall(EchoGrpc.CLIENT_STREAMING, CallOptions.DEFAULT), observer(result));
        for (int i = 0; i < 5; i++) {
            requests.onNext("part" + i + ",");
        }
        requests.onCompleted();
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("part0,part1,part2,part3,part4,");
    }

    @Test
    void serverStreamingCallCrossesTheGateway() {
        Iterator<String> replies = ClientCalls.blockingServerStreamingCall(channel, EchoGrpc.SERVER_STREAMING,
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "w*50");
        List<String> all = new ArrayList<>();
        replies.forEachRemaining(all::add);
        assertThat(all).hasSize(50).startsWith("w0", "w1").endsWith("w49");
    }

    @Test
    void bidiStreamingCallInterleavesBothDirections() throws Exception {
        LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        StreamObserver<String> requests = ClientCalls.asyncBidiStreamingCall(
                channel.newCall(EchoGrpc.BIDI, CallOptions.DEFAULT), new StreamObserver<>() {
                    @Override
                    public void onNext(String value) {
                        received.add(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                        done.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        done.complete(null);
                    }
                });
        for (int i = 0; i < 3; i++) {
            requests.onNext("m" + i);
            assertThat(received.poll(10, TimeUnit.SECONDS)).isEqualTo("re:m" + i);
        }
        requests.onCompleted();
        done.get(10, TimeUnit.SECONDS);
    }

    @Test
    void fourMegabyteMessagesCrossBothWays() {
        String big = "x".repeat(4 * 1024 * 1024);
        assertThat(unary(big, CallOptions.DEFAULT)).hasSize(big.length()).isEqualTo(big);
    }

    @Test
    void hundredConcurrentStreamsShareOneConnection() throws Exception {
        CountDownLatch all = new CountDownLatch(100);
        List<CompletableFuture<String>> results = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            CompletableFuture<String> result = new CompletableFuture<>();
            results.add(result);
            ClientCalls.asyncUnaryCall(channel.newCall(EchoGrpc.UNARY, CallOptions.DEFAULT), "c" + i,
                    observer(result));
            result.whenComplete((r, t) -> all.countDown());
        }
        assertThat(all.await(20, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 100; i++) {
            assertThat(results.get(i).get()).isEqualTo("c" + i);
        }
        assertThat(gateway.count("tollgate.downstream.cx.total", "listener", "grpc")).isEqualTo(1.0);
    }

    @Test
    void serverErrorStatusAndMessageReachTheClient() {
        assertThatThrownBy(() -> unary("fail:5:no such thing", CallOptions.DEFAULT))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
                    assertThat(e.getStatus().getDescription()).isEqualTo("no such thing");
                });
    }

    @Test
    void deadlineEndsTheCallAndCancelsTheServerSide() throws Exception {
        int before = echo.cancelled.get();
        long start = System.nanoTime();
        assertThatThrownBy(() -> unary("hang", CallOptions.DEFAULT.withDeadlineAfter(300, TimeUnit.MILLISECONDS)))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        Await.until("the server saw the call cancelled", Duration.ofSeconds(5), () -> echo.cancelled.get() > before);
    }

    @Test
    void clientCancellationResetsTheUpstreamStream() throws Exception {
        int before = echo.cancelled.get();
        int hangingBefore = echo.hanging.get();
        ClientCall<String, String> call = channel.newCall(EchoGrpc.UNARY, CallOptions.DEFAULT);
        CompletableFuture<String> result = new CompletableFuture<>();
        ClientCalls.asyncUnaryCall(call, "hang", observer(result));
        Await.until("the call reached the server", Duration.ofSeconds(5),
                () -> echo.hanging.get() > hangingBefore);
        call.cancel("changed my mind", null);
        Await.until("the server saw the call cancelled", Duration.ofSeconds(5), () -> echo.cancelled.get() > before);
    }

    @Test
    void noRouteIsUnimplemented() {
        MethodDescriptor<String, String> missing = EchoGrpc.method("test.Missing", MethodDescriptor.MethodType.UNARY, "Call");
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, missing, CallOptions.DEFAULT, "x"))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED));
    }

    @Test
    void unreachableUpstreamIsUnavailable() {
        MethodDescriptor<String, String> closed = EchoGrpc.method("test.Closed", MethodDescriptor.MethodType.UNARY, "Call");
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, closed, CallOptions.DEFAULT, "x"))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    }

    @Test
    void upstreamKilledMidStreamEndsTheCallPromptly() throws Exception {
        try (EchoServer doomed = new EchoServer();
                TestGateway own = TestGateway.start(CONFIG, Map.of("ECHO", doomed.port(), "CLOSED", doomed.port()))) {
            ManagedChannel client = Grpc.newChannelBuilderForAddress("127.0.0.1", own.port("grpc"),
                    InsecureChannelCredentials.create()).build();
            try {
                Iterator<String> replies = ClientCalls.blockingServerStreamingCall(client, EchoGrpc.SERVER_STREAMING,
                        CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS), "hold");
                assertThat(replies.next()).isEqualTo("held");
                long start = System.nanoTime();
                doomed.kill();
                // grpc-java's shutdownNow resets its streams with CANCEL, which crosses the gateway as such
                assertThatThrownBy(replies::next).isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.CANCELLED));
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            } finally {
                client.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    private static String unary(String request, CallOptions options) {
        return ClientCalls.blockingUnaryCall(channel, EchoGrpc.UNARY, options.withDeadlineAfter(
                options.getDeadline() == null ? 20_000 : options.getDeadline().timeRemaining(TimeUnit.MILLISECONDS),
                TimeUnit.MILLISECONDS), request);
    }

    private static StreamObserver<String> observer(CompletableFuture<String> result) {
        return new StreamObserver<>() {
            @Override
            public void onNext(String value) {
                result.complete(value);
            }

            @Override
            public void onError(Throwable t) {
                result.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                result.complete(null);
            }
        };
    }
}
