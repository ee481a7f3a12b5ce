package io.tollgate.server.bolt;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** A Bolt upstream that answers every two-way request at once, successfully, with a body of a fixed size. */
final class AnsweringBoltUpstream implements AutoCloseable {

    private final Channel server;
    private final AtomicInteger answered = new AtomicInteger();

    AnsweringBoltUpstream(EventLoopGroup group, int bodyBytes) throws InterruptedException {
        ByteBuf body = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(new byte[bodyBytes]));
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
                                answered.incrementAndGet();
                                ctx.writeAndFlush(BoltResponses.response(ctx.alloc(), frame.dialect(),
                                        frame.requestId(), BoltStatus.SUCCESS, null, Map.of(), body));
                            }
                        });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
    }

    int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Requests answered so far. */
    int answered() {
        return answered.get();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
    }
}
