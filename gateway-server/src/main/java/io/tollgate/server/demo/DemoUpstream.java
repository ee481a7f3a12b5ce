package io.tollgate.server.demo;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.tollgate.core.config.DemoUpstreamConfig;
import io.tollgate.server.transport.Transport;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo upstream of the default configuration: answers every request with a short text that
 * names the method and path it saw, so {@code curl} through a fresh gateway shows the whole path
 * worked. Labelled as a demo in every answer; not for production traffic.
 */
public final class DemoUpstream implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DemoUpstream.class);

    private final Channel channel;

    private DemoUpstream(Channel channel) {
        this.channel = channel;
    }

    public static DemoUpstream start(DemoUpstreamConfig config, EventLoopGroup group, Transport transport)
            throws InterruptedException {
        Channel channel = new ServerBootstrap()
                .group(group)
                .channel(transport.serverChannel())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new Handler());
                    }
                })
                .bind(config.address(), config.port()).sync().channel();
        log.info("demo upstream on {}", channel.localAddress());
        return new DemoUpstream(channel);
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }

    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            String body = "Hello from the Tollgate demo upstream: " + request.method() + " " + request.uri() + "\n";
            FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK,
                    ByteBufUtil.writeUtf8(ctx.alloc(), body));
            response.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                    .set("x-demo-upstream", "true")
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            HttpUtil.setKeepAlive(response, keepAlive);
            if (keepAlive) {
                ctx.writeAndFlush(response);
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }
    }
}
