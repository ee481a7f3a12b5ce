package io.tollgate.server.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.tollgate.protocols.bolt.BoltCodec;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltResponses;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Bolt upstream that answers every two-way request at once, the same way: successfully with a
 * body of a fixed size, with a status of its own, or by closing the connection.
 */
public final class AnsweringBoltUpstream implements AutoCloseable {

    /** What the upstream does with a request; the frame is released by the caller. */
    @FunctionalInterface
    interface Answer {
        void answer(ChannelHandlerContext ctx, BoltFrame request);
    }

    private final Channel server;
    private final AtomicInteger answered = new AtomicInteger();

    /** Answers successfully with {@code bodyBytes} of content. */
    public AnsweringBoltUpstream(EventLoopGroup group, int bodyBytes) throws InterruptedException {
        this(group, success(Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(new byte[bodyBytes]))));
    }

    AnsweringBoltUpstream(EventLoopGroup group, Answer answer) throws InterruptedException {
        this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new RpcFrameDecoder(BoltCodec.DEFAULTS))
                                .addLast(new SimpleChannelInboundHandler<BoltFrame>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, BoltFrame frame) {
                                if (frame.kind() != BoltFrame.Kind.REQUEST) {
                                    return;
                                }
                                answered.incrementAndGet();
                                answer.answer(ctx, frame);
                            }
                        });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
    }

    /** Answers {@code status} with no content. */
    static Answer status(BoltStatus status) {
        return (ctx, request) -> ctx.writeAndFlush(
                BoltResponses.status(ctx.alloc(), request.dialect(), request.requestId(), status));
    }

    /** Closes the connection instead of answering. */
    static Answer closing() {
        return (ctx, request) -> ctx.close();
    }

    private static Answer success(ByteBuf body) {
        return (ctx, request) -> ctx.writeAndFlush(BoltResponses.response(ctx.alloc(), request.dialect(),
                request.requestId(), BoltStatus.SUCCESS, null, Map.of(), body));
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Two-way requests answered (or closed on) so far. */
    public int answered() {
        return answered.get();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
    }
}
