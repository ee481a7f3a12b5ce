package io.tollgate.server.rpc;

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
import io.tollgate.protocols.bolt.BoltCodec;
import io.tollgate.protocols.bolt.BoltDialect;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltHeartbeats;
import io.tollgate.protocols.bolt.BoltResponses;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import java.net.InetSocketAddress;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Bolt upstream that holds every request unanswered, so that a test decides how the story ends:
 * it may answer them all late, kill the upstream's connections or the whole upstream while calls
 * are in flight. It answers heartbeats only when told to.
 */
final class HoldingBoltUpstream implements AutoCloseable {

    /** A request held unanswered: where it came from and what an answer needs. */
    private record Held(Channel channel, BoltDialect dialect, int requestId) {
    }

    private final Channel server;
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger heartbeats = new AtomicInteger();
    private final Queue<Held> held = new ConcurrentLinkedQueue<>();

    HoldingBoltUpstream(EventLoopGroup group, boolean answerHeartbeats) throws InterruptedException {
        this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.add(ch);
                        ch.pipeline().addLast(new RpcFrameDecoder(BoltCodec.DEFAULTS))
                                .addLast(new SimpleChannelInboundHandler<BoltFrame>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, BoltFrame frame) {
                                if (frame.kind() != BoltFrame.Kind.HEARTBEAT) {
                                    if (frame.kind() == BoltFrame.Kind.REQUEST) {
                                        held.add(new Held(ctx.channel(), frame.dialect(), (int) frame.requestId()));
                                    }
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

    /** Answers every request held so far with a success status, however late that is. */
    void answerHeld() {
        Held request;
        while ((request = held.poll()) != null) {
            Channel channel = request.channel();
            channel.writeAndFlush(BoltResponses.status(channel.alloc(), request.dialect(), request.requestId(),
                    BoltStatus.SUCCESS));
        }
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
