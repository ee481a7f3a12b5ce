package io.tollgate.server.bolt;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.tollgate.protocols.bolt.BoltDecoder;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltHeartbeats;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Bolt upstream that holds every request unanswered, so that a test decides how the story ends:
 * it may kill the upstream's connections or the whole upstream while calls are in flight. It
 * answers heartbeats only when told to.
 */
final class HoldingBoltUpstream implements AutoCloseable {

    private final Channel server;
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger heartbeats = new AtomicInteger();

    HoldingBoltUpstream(EventLoopGroup group, boolean answerHeartbeats) throws InterruptedException {
        this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.add(ch);
                        ch.pipeline().addLast(new BoltDecoder()).addLast(new SimpleChannelInboundHandler<BoltFrame>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, BoltFrame frame) {
                                if (frame.kind() != BoltFrame.Kind.HEARTBEAT) {
                                    requests.incrementAndGet();
                                    return;
                                }
                                heartbeats.incrementAndGet();
                                if (answerHeartbeats) {
                                    ctx.writeAndFlush(BoltHeartbeats.ack(ctx.alloc(), frame));
                                }
                            }
                        });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
    }

    int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Requests (not heartbeats) received so far. */
    int requests() {
        return requests.get();
    }

    int heartbeats() {
        return heartbeats.get();
    }

    /** Accepted connections still open. */
    int openConnections() {
        return (int) connections.stream().filter(Channel::isActive).count();
    }

    /** Kills every accepted connection, the listening socket staying up. */
    void closeConnections() {
        connections.close().syncUninterruptibly();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        closeConnections();
    }
}
