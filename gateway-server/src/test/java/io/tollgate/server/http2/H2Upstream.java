package io.tollgate.server.http2;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * A real h2c (prior knowledge) upstream on Netty for tests. It answers every request with a text
 * echo of what arrived (method, path, each header and trailer as {@code name: value} lines, body
 * size) and the trailer {@code x-upstream-trailer: done}.
 */
public final class H2Upstream implements AutoCloseable {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;

    public H2Upstream() throws InterruptedException {
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(Http2FrameCodecBuilder.forServer().build(),
                                new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
                                    @Override
                                    protected void initChannel(Http2StreamChannel stream) {
                                        stream.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(true),
                                                new HttpObjectAggregator(1 << 20), new Echo());
                                    }
                                }));
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static final class Echo extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            StringBuilder text = new StringBuilder();
            text.append("method: ").append(request.method()).append('\n');
            text.append("path: ").append(request.uri()).append('\n');
            for (Map.Entry<String, String> header : request.headers()) {
                text.append("h-").append(header.getKey()).append(": ").append(header.getValue()).append('\n');
            }
            for (Map.Entry<String, String> trailer : request.trailingHeaders()) {
                text.append("t-").append(trailer.getKey()).append(": ").append(trailer.getValue()).append('\n');
            }
            text.append("body-bytes: ").append(request.content().readableBytes()).append('\n');
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    ByteBufUtil.writeUtf8(ctx.alloc(), text));
            response.headers().set("content-type", "text/plain");
            response.trailingHeaders().set("x-upstream-trailer", "done");
            ctx.writeAndFlush(response);
        }
    }
}
