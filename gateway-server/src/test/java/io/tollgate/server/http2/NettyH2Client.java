package io.tollgate.server.http2;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.server.testing.TestCertificate;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * A well-behaved HTTP/2 client built on Netty's own HTTP/2 codec ({@code Http2FrameCodec} and a
 * child channel per stream), over a real socket, in cleartext (prior knowledge) or over TLS with
 * ALPN {@code h2} trusting the test certificate. Each exchange writes its frames without a flush
 * and flushes once, so that the gateway reads them in one batch as a quick client's would arrive.
 */
final class NettyH2Client implements AutoCloseable {

    /** What came back on one stream: the response head, body and trailers, or the reset that ended it. */
    record Response(Http2Headers head, String body, Http2Headers trailers, long resetCode) {
        String status() {
            return head == null ? null : head.status().toString();
        }
    }

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel channel;
    private final CompletableFuture<Http2GoAwayFrame> goAway = new CompletableFuture<>();

    private NettyH2Client(int port, SslContext tls) throws InterruptedException {
        channel = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc(), "localhost", port));
                        }
                        ch.pipeline().addLast(Http2FrameCodecBuilder.forClient().build(),
                                new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()),
                                new ChannelInboundHandlerAdapter() {
                                    @Override
                                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                        if (msg instanceof Http2GoAwayFrame frame) {
                                            goAway.complete(frame.retainedDuplicate());
                                        }
                                        ReferenceCountUtil.release(msg);
                                    }
                                });
                    }
                })
                .connect("127.0.0.1", port).sync().channel();
        if (tls != null) {
            SslHandler ssl = channel.pipeline().get(SslHandler.class);
            ssl.handshakeFuture().sync();
            if (!ApplicationProtocolNames.HTTP_2.equals(ssl.applicationProtocol())) {
                throw new IllegalStateException("ALPN agreed on " + ssl.applicationProtocol() + " (expected h2)");
            }
        }
    }

    /** A cleartext connection speaking HTTP/2 with prior knowledge. */
    static NettyH2Client h2c(int port) throws InterruptedException {
        return new NettyH2Client(port, null);
    }

    /** A TLS connection that agreed on {@code h2} by ALPN. */
    static NettyH2Client h2(int port) throws InterruptedException, SSLException {
        SslContext tls = SslContextBuilder.forClient().trustManager(TestCertificate.certChainFile().toFile())
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2))
                .build();
        return new NettyH2Client(port, tls);
    }

    /** A request head for {@code path} on this client's scheme. */
    Http2Headers head(String method, String path) {
        return new DefaultHttp2Headers().method(method).path(path)
                .scheme(channel.pipeline().get(SslHandler.class) == null ? "http" : "https").authority("test");
    }

    /**
     * Starts one stream: {@code head}, then a DATA frame per element of {@code data}, then
     * {@code trailers} when not null; the last frame sent ends the stream. Nothing is flushed:
     * {@link #flush()} sends what every stream started wrote.
     */
    CompletableFuture<Response> start(Http2Headers head, List<String> data, Http2Headers trailers)
            throws InterruptedException {
        CompletableFuture<Response> response = new CompletableFuture<>();
        Http2StreamChannel stream = new Http2StreamChannelBootstrap(channel).handler(new Collector(response))
                .open().sync().getNow();
        boolean headEnds = data.isEmpty() && trailers == null;
        stream.write(new DefaultHttp2HeadersFrame(head, headEnds));
        for (int i = 0; i < data.size(); i++) {
            boolean last = i == data.size() - 1 && trailers == null;
            ByteBuf bytes = Unpooled.copiedBuffer(data.get(i), StandardCharsets.UTF_8);
            stream.write(new DefaultHttp2DataFrame(bytes, last));
        }
        if (trailers != null) {
            stream.write(new DefaultHttp2HeadersFrame(trailers, true));
        }
        return response;
    }

    /** Sends what the streams started wrote, in one flush. */
    void flush() {
        channel.flush();
    }

    /** One stream, flushed at once, its response awaited for up to ten seconds. */
    Response exchange(Http2Headers head, List<String> data, Http2Headers trailers) throws Exception {
        CompletableFuture<Response> response = start(head, data, trailers);
        flush();
        return response.get(10, TimeUnit.SECONDS);
    }

    /** The GOAWAY the gateway sent, if one came. */
    CompletableFuture<Http2GoAwayFrame> goAway() {
        return goAway;
    }

    boolean isOpen() {
        return channel.isActive();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        goAway.thenAccept(ReferenceCountUtil::release);
    }

    /** Gathers one stream's frames into its {@link Response}. */
    private static final class Collector extends SimpleChannelInboundHandler<Http2StreamFrame> {

        private final CompletableFuture<Response> response;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final List<Http2Headers> heads = new ArrayList<>(2);

        Collector(CompletableFuture<Response> response) {
            this.response = response;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Http2StreamFrame frame) {
            boolean ended = false;
            if (frame instanceof Http2HeadersFrame headers) {
                heads.add(headers.headers());
                ended = headers.isEndStream();
            } else if (frame instanceof Http2DataFrame data) {
                body.writeBytes(ByteBufUtil.getBytes(data.content()));
                ended = data.isEndStream();
            } else if (frame instanceof Http2ResetFrame reset) {
                response.complete(new Response(null, null, null, reset.errorCode()));
            }
            if (ended) {
                Http2Headers head = heads.get(0);
                Http2Headers trailers = heads.size() > 1 ? heads.get(heads.size() - 1) : null;
                response.complete(new Response(head, body.toString(StandardCharsets.UTF_8), trailers, -1));
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            response.completeExceptionally(new IllegalStateException("the stream closed without a response"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            response.completeExceptionally(cause);
        }
    }
}
