package io.tollgate.server.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
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
import java.util.Map;
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

    private final Transport transport = Transport.best();
    private EventLoopGroup upstreamLoop;
    private Channel upstream;
    private TestGateway gateway;

    @BeforeEach
    void start() throws InterruptedException {
        upstreamLoop = transport.newGroup(1, "burst-upstream");
        upstream = new ServerBootstrap()
                .group(upstreamLoop)
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new PathEcho());
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
        gateway = TestGateway.start("""
                event_loops: 1
                listeners:
                  - name: http
                    port: 0
                    protocols: [http1, h2c]
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - { match: { prefix: / }, route: { cluster: upstream, timeout: 30s } }
                clusters:
                  - name: upstream
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                """, Map.of("PORT", ((InetSocketAddress) upstream.localAddress()).getPort()));
    }

    @AfterEach
    void stop() {
        gateway.close();
        upstream.close().syncUninterruptibly();
        upstreamLoop.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
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
