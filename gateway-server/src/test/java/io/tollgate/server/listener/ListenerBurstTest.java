package io.tollgate.server.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.transport.Transport;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A thousand real connections opened at once, each sending its first request before the gateway
 * accepted any: every one is accepted, read and answered, through a pool that must grow from
 * nothing at the same time.
 */
class ListenerBurstTest {

    private static final int CONNECTIONS = 1000;

    private PathEchoUpstream upstream;
    private TestGateway gateway;

    @BeforeEach
    void start() throws InterruptedException {
        upstream = new PathEchoUpstream(Transport.best());
        gateway = TestGateway.detectingProxyTo(upstream.port(), "30s");
    }

    @AfterEach
    void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void answersTheFirstRequestOfEveryConnectionOpenedAtOnce() throws Exception {
        List<RawHttp> connections = new ArrayList<>();
        try {
            for (int i = 0; i < CONNECTIONS; i++) {
                connections.add(new RawHttp(gateway.port("http")).send("GET /c" + i + " HTTP/1.1\r\nHost: x\r\n\r\n"));
            }
            List<String> answers = new ArrayList<>();
            for (RawHttp connection : connections) {
                RawHttp.Response response = connection.read();
                answers.add(response.status() + " " + response.body());
            }

            List<String> expected = new ArrayList<>();
            for (int i = 0; i < CONNECTIONS; i++) {
                expected.add("200 /c" + i);
            }
            assertThat(answers).isEqualTo(expected);
        } finally {
            for (RawHttp connection : connections) {
                connection.close();
            }
        }
    }

    /** A Netty HTTP/1.1 upstream on one loop; its backlog is Netty's default, the kernel's maximum. */
    private static final class PathEchoUpstream implements AutoCloseable {

        private final EventLoopGroup loop;
        private final Channel channel;

        PathEchoUpstream(Transport transport) throws InterruptedException {
            loop = transport.newGroup(1, "burst-upstream");
            channel = new ServerBootstrap().group(loop).channel(transport.serverChannel())
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new PathEcho());
                        }
                    })
                    .bind("127.0.0.1", 0).sync().channel();
        }

        int port() {
            return ((InetSocketAddress) channel.localAddress()).getPort();
        }

        @Override
        public void close() {
            channel.close().syncUninterruptibly();
            loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** Answers every request with its own path, so each answer shows whose request it was. */
    private static final class PathEcho extends SimpleChannelInboundHandler<HttpObject> {

        private String path;

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (msg instanceof HttpRequest request) {
                path = request.uri();
            }
            if (msg instanceof LastHttpContent) {
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                        Unpooled.copiedBuffer(path, StandardCharsets.US_ASCII));
                response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
                ctx.writeAndFlush(response);
            }
        }
    }
}
