package io.tollgate.server.http2;

import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A grpc-java server of {@link EchoGrpc} on an ephemeral loopback port. Unary echoes, or fails
 * with the status a request names ({@code fail:CODE:message}), or never answers ({@code hang});
 * client streaming joins what it got; server streaming repeats a word as often as asked
 * ({@code word*N}), or sends one message and stays open ({@code hold}); bidi echoes each message.
 * It counts calls the client cancelled.
 */
public final class EchoServer implements AutoCloseable {

    final AtomicInteger cancelled = new AtomicInteger();
    final AtomicInteger hanging = new AtomicInteger();
    final CountDownLatch holding = new CountDownLatch(1);
    private final Server server;

    public EchoServer() throws IOException {
        ServerServiceDefinition service = ServerServiceDefinition.builder(EchoGrpc.SERVICE)
                .addMethod(EchoGrpc.UNARY, ServerCalls.asyncUnaryCall(this::unary))
                .addMethod(EchoGrpc.CLIENT_STREAMING, ServerCalls.asyncClientStreamingCall(this::collect))
                .addMethod(EchoGrpc.SERVER_STREAMING, ServerCalls.asyncServerStreamingCall(this::repeat))
                .addMethod(EchoGrpc.BIDI, ServerCalls.asyncBidiStreamingCall(this::chat))
                .build();
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(service)
                .maxInboundMessageSize(16 * 1024 * 1024)
                .build()
                .start();
    }

    public int port() {
        return server.getPort();
    }

    private void unary(String request, StreamObserver<String> response) {
        watchCancel(response);
        if (request.equals("hang")) {
            hanging.incrementAndGet();
            return;
        }
        if (request.startsWith("fail:")) {
            String[] parts = request.split(":", 3);
            response.onError(Status.fromCodeValue(Integer.parseInt(parts[1])).withDescription(parts[2]).asRuntimeException());
            return;
        }
        response.onNext(request);
        response.onCompleted();
    }

    private StreamObserver<String> collect(StreamObserver<String> response) {
        StringBuilder joined = new StringBuilder();
        return new StreamObserver<>() {
            @Override
            public void onNext(String value) {
                joined.append(value);
            }

            @Override
            public void onError(Throwable t) {
                cancelled.incrementAndGet();
            }

            @Override
            public void onCompleted() {
                response.onNext(joined.toString());
                response.onCompleted();
            }
        };
    }

    private void repeat(String request, StreamObserver<String> response) {
        watchCancel(response);
        if (request.equals("hold")) {
            response.onNext("held");
            holding.countDown();
            return;
        }
        String[] parts = request.split("\\*");
        for (int i = 0; i < Integer.parseInt(parts[1]); i++) {
            response.onNext(parts[0] + i);
        }
        response.onCompleted();
    }

    private StreamObserver<String> chat(StreamObserver<String> response) {
        watchCancel(response);
        return new StreamObserver<>() {
            @Override
            public void onNext(String value) {
                response.onNext("re:" + value);
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                response.onCompleted();
            }
        };
    }

    private void watchCancel(StreamObserver<String> response) {
        ((ServerCallStreamObserver<String>) response).setOnCancelHandler(cancelled::incrementAndGet);
    }

    /** Stops at once, cutting the calls in progress. */
    void kill() throws InterruptedException {
        server.shutdownNow();
        server.awaitTermination(5, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
