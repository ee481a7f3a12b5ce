package io.tollgate.benchmarks.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.tollgate.server.transport.Transport;
import java.util.function.BiConsumer;

/**
 * The upstream of every multiplexed RPC protocol's load benchmark (bench/rpc.sh): listens on
 * 127.0.0.1, answers each message at once as the protocol says, and flushes once per read batch.
 */
public final class RpcUpstreamServer {

    private RpcUpstreamServer() {
    }

    /**
     * Runs a protocol's upstream from its {@code main} until the process is killed: {@code args} are
     * {@code [port] [threads]}, by default {@code defaultPort} and 1. {@code answer} writes, without
     * flushing, what answers a message, if anything; it may close the channel.
     */
    public static <M> void serve(String[] args, int defaultPort, RpcWire<M> wire,
            BiConsumer<ChannelHandlerContext, M> answer) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : defaultPort;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        Transport transport = Transport.best();
        EventLoopGroup group = transport.newGroup(threads, wire.name() + "-upstream");
        bind(group, transport, port, wire, answer).closeFuture().sync();
    }

    /**
     * Listens on 127.0.0.1:{@code port} (0: any free port) on {@code group}, answering as
     * {@link #serve} does; returns the bound server channel.
     */
    public static <M> Channel bind(EventLoopGroup group, Transport transport, int port, RpcWire<M> wire,
            BiConsumer<ChannelHandlerContext, M> answer) throws InterruptedException {
        return new ServerBootstrap().group(group).channel(transport.serverChannel())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(wire.frameDecoders().get()).addLast(new Answerer<>(wire, answer));
                    }
                }).bind("127.0.0.1", port).sync().channel();
    }

    /** Answers each message; flushes when the read batch ends. */
    private static final class Answerer<M> extends SimpleChannelInboundHandler<M> {
        private final BiConsumer<ChannelHandlerContext, M> answer;

        Answerer(RpcWire<M> wire, BiConsumer<ChannelHandlerContext, M> answer) {
            super(wire.messageType());
            this.answer = answer;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, M message) {
            answer.accept(ctx, message);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }
}
