package io.tollgate.server.bolt;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.tollgate.protocols.bolt.BoltDecoder;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltResponses;
import io.tollgate.protocols.bolt.BoltStatus;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/** A Bolt upstream that fails every two-way request the same way: with a status, or by closing the connection. */
final class FailingBoltUpstream implements AutoCloseable {

    /** How each request fails. */
    enum Failure { BUSY, TIMEOUT, RESET }

    private final Channel server;
    private final AtomicInteger requests = new AtomicInteger();

    FailingBoltUpstream(EventLoopGroup group, Failure failure) throws InterruptedException {
        this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new BoltDecoder()).addLast(new SimpleChannelInboundHandler<BoltFrame>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, BoltFrame frame) {
                                if (frame.kind() != BoltFrame.Kind.REQUEST) {
                                    return;
                                }
                                requests.incrementAndGet();
                                switch (failure) {
                                    case BUSY -> answer(ctx, frame, BoltStatus.SERVER_THREADPOOL_BUSY);
                                    case TIMEOUT -> answer(ctx, frame, BoltStatus.TIMEOUT);
                                    case RESET -> ctx.close();
                                }
                            }
                        });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
    }

    private static void answer(ChannelHandlerContext ctx, BoltFrame frame, BoltStatus status) {
        ctx.writeAndFlush(BoltResponses.status(ctx.alloc(), frame.dialect(), frame.requestId(), status));
    }

    int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Two-way requests received so far. */
    int requests() {
        return requests.get();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
    }
}
