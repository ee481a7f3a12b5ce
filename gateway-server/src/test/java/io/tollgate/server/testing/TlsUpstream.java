package io.tollgate.server.testing;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SniHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * A real TLS upstream for tests on Netty: presents a certificate of {@link TestPki}, offers h2 and
 * http/1.1 by ALPN, optionally asks for a client certificate signed by the test CA, and answers
 * every request with what it saw: {@code sni}, {@code alpn}, {@code client} (the client
 * certificate's subject or {@code none}) and {@code path}, one per line. It remembers each SNI.
 */
public final class TlsUpstream implements AutoCloseable {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final SslContext context;
    private final Channel channel;
    private final Queue<String> serverNames = new ConcurrentLinkedQueue<>();

    /** Presents {@code certificate} (a {@link TestPki} name); with {@code askClientCertificate}, requests one. */
    public TlsUpstream(String certificate, boolean askClientCertificate) throws Exception {
        this(certificate, askClientCertificate, false);
    }

    /**
     * As {@link #TlsUpstream(String, boolean)}; with {@code closeEachConnection}, every response
     * says {@code Connection: close} and its connection closes, so each request makes a handshake.
     */
    public TlsUpstream(String certificate, boolean askClientCertificate, boolean closeEachConnection)
            throws Exception {
        SslContextBuilder builder = SslContextBuilder.forServer(TestPki.cert(certificate).toFile(),
                        TestPki.key(certificate).toFile())
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1));
        if (askClientCertificate) {
            builder.trustManager(TestPki.cert("ca").toFile()).clientAuth(ClientAuth.OPTIONAL);
        }
        context = builder.build();
        channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new SniHandler(name -> {
                            serverNames.add(name == null ? "<none>" : name);
                            return context;
                        })).addLast(new ApplicationProtocolNegotiationHandler(ApplicationProtocolNames.HTTP_1_1) {
                            @Override
                            protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
                                if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                                    ctx.pipeline().addLast(Http2FrameCodecBuilder.forServer().build(),
                                            new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
                                                @Override
                                                protected void initChannel(Http2StreamChannel stream) {
                                                    stream.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(true));
                                                    http(stream.pipeline(), ch, protocol, false);
                                                }
                                            }));
                                } else {
                                    ctx.pipeline().addLast(new HttpServerCodec());
                                    http(ctx.pipeline(), ch, protocol, closeEachConnection);
                                }
                            }
                        });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** The SNI of every connection so far, {@code <none>} for a connection without one. */
    public Queue<String> serverNames() {
        return serverNames;
    }

    private static void http(ChannelPipeline pipeline, Channel connection, String protocol, boolean close) {
        pipeline.addLast(new HttpObjectAggregator(65536), new SimpleChannelInboundHandler<FullHttpRequest>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
                SslHandler ssl = connection.pipeline().get(SslHandler.class);
                String client;
                try {
                    client = ((X509Certificate) ssl.engine().getSession().getPeerCertificates()[0])
                            .getSubjectX500Principal().getName();
                } catch (SSLPeerUnverifiedException e) {
                    client = "none";
                }
                String body = "alpn: " + protocol
                        + "\nclient: " + client + "\npath: " + request.uri() + "\n";
                FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK,
                        ByteBufUtil.writeUtf8(ctx.alloc(), body));
                response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
                if (close) {
                    response.headers().set(HttpHeaderNames.CONNECTION, "close");
                }
                ctx.writeAndFlush(response).addListener(close ? ChannelFutureListener.CLOSE
                        : ChannelFutureListener.CLOSE_ON_FAILURE);
            }
        });
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        ReferenceCountUtil.release(context);
    }
}
