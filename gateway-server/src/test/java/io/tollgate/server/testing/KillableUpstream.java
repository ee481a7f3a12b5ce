package io.tollgate.server.testing;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP/1.1 or h2c (prior knowledge) upstream on Netty that a test can kill as a crashing
 * process would die: its listening socket closes and every accepted connection is reset at once
 * (SO_LINGER 0), whatever it was doing. It answers every request 200 after a delay, naming itself
 * in {@code x-upstream}, so that requests are in flight when it dies. It can also come back on
 * its port as a restarted process would, with connections of the old one still open on the
 * gateway's side.
 */
public final class KillableUpstream implements AutoCloseable {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final ChannelGroup accepted = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final AtomicInteger answered = new AtomicInteger();
    private final String name;
    private final long delayMillis;
    private final Set<Channel> stale = ConcurrentHashMap.newKeySet();
    private final AtomicInteger staleHits = new AtomicInteger();
    private final ServerBootstrap bootstrap;
    private volatile Channel server;

    /** Starts on a free port, speaking h2c when {@code h2}, else HTTP/1.1. */
    public KillableUpstream(String name, boolean h2, long delayMillis) throws InterruptedException {
        this.name = name;
        this.delayMillis = delayMillis;
        this.bootstrap = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        accepted.add(ch);
                        ch.pipeline().addLast(new StaleGuard());
                        if (h2) {
                            ch.pipeline().addLast(Http2FrameCodecBuilder.forServer().build(),
                                    new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
                                        @Override
                                        protected void initChannel(Http2StreamChannel stream) {
                                            stream.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(true),
                                                    new HttpObjectAggregator(1 << 20), new Answer());
                                        }
                                    }));
                        } else {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new Answer());
                        }
                    }
                });
        this.server = bootstrap.bind("127.0.0.1", 0).sync().channel();
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Requests answered so far. */
    public int answered() {
        return answered.get();
    }

    /** Connections accepted and still open. */
    public int openConnections() {
        return accepted.size();
    }

    /** Requests that arrived on a connection of the process before {@link #restartForgettingConnections()}. */
    public int staleHits() {
        return staleHits.get();
    }

    /**
     * Restarts as a new process on the same port would: the old connections stay open but silent
     * until something arrives on one, which is then reset, as a host's kernel resets a connection
     * it no longer knows.
     */
    public void restartForgettingConnections() throws InterruptedException {
        int port = port();
        server.close().syncUninterruptibly();
        stale.addAll(accepted);
        server = bindAgain(port);
    }

    /** Binds {@code port} again, waiting out the moment the old listening socket takes to go. */
    private Channel bindAgain(int port) throws InterruptedException {
        for (int tries = 1; ; tries++) {
            ChannelFuture bound = bootstrap.bind("127.0.0.1", port).await();
            if (bound.isSuccess() || tries == 50) {
                return bound.sync().channel();
            }
            Thread.sleep(20);
        }
    }

    /** Dies at once: no new connection is accepted, every open one is reset, nothing more is answered. */
    public void kill() {
        server.close().syncUninterruptibly();
        for (Channel channel : accepted) {
            channel.config().setOption(ChannelOption.SO_LINGER, 0);
        }
        accepted.close().syncUninterruptibly();
    }

    @Override
    public void close() {
        kill();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Resets a connection of the process before its restart as soon as anything arrives on it. */
    private final class StaleGuard extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!stale.contains(ctx.channel())) {
                ctx.fireChannelRead(msg);
                return;
            }
            ReferenceCountUtil.release(msg);
            staleHits.incrementAndGet();
            ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
            ctx.close();
        }
    }

    private final class Answer extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            ctx.executor().schedule(() -> {
                if (!ctx.channel().isActive() || stale.contains(ctx.channel())) {
                    return;
                }
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                        ByteBufUtil.writeUtf8(ctx.alloc(), "ok from " + name + "\n"));
                response.headers().set("x-upstream", name).set("content-type", "text/plain");
                HttpUtil.setContentLength(response, response.content().readableBytes());
                HttpUtil.setKeepAlive(response, keepAlive);
                answered.incrementAndGet();
                ctx.writeAndFlush(response);
            }, delayMillis, TimeUnit.MILLISECONDS);
        }
    }
}
