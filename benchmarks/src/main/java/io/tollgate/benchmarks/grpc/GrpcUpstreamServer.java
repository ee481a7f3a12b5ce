package io.tollgate.benchmarks.grpc;

import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The grpc-java upstream of the gRPC unary benchmark: answers every {@code bench.Echo/Unary} call
 * at once with a fixed reply (1 KiB by default), on one event loop with callbacks run in place.
 * Usage: {@code GrpcUpstreamServer [port] [replyBytes]}; port 0 picks a free one, printed on start.
 */
public final class GrpcUpstreamServer {

    private GrpcUpstreamServer() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        int replyBytes = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
        if (port < 0 || port > 65535 || replyBytes < 0) {
            System.err.printf("port %d (expected: 0..65535), replyBytes %d (expected: >= 0)%n", port, replyBytes);
            System.exit(2);
        }
        EventLoopGroup group = ShadedTransport.newGroup(1, "grpc-upstream");
        ServerServiceDefinition service = ServerServiceDefinition.builder(BenchGrpc.SERVICE)
                .addMethod(BenchGrpc.UNARY, new FixedReply(new byte[replyBytes]))
                .build();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
                .channelType(ShadedTransport.serverChannel())
                .bossEventLoopGroup(group)
                .workerEventLoopGroup(group)
                .directExecutor()
                .addService(service)
                .build()
                .start();
        System.out.println("listening on 127.0.0.1:" + server.getPort());
        server.awaitTermination();
    }

    /** Answers each call with the same reply once the client has sent its request and half-closed. */
    private static final class FixedReply implements ServerCallHandler<byte[], byte[]> {
        private final byte[] reply;

        FixedReply(byte[] reply) {
            this.reply = reply;
        }

        @Override
        public ServerCall.Listener<byte[]> startCall(ServerCall<byte[], byte[]> call, Metadata headers) {
            call.request(1);
            return new ServerCall.Listener<>() {
                @Override
                public void onHalfClose() {
                    call.sendHeaders(new Metadata());
                    call.sendMessage(reply);
                    call.close(Status.OK, new Metadata());
                }
            };
        }
    }
}
