package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.config.Http2Options;
import io.tollgate.protocols.http2.Http2Codecs;
import io.tollgate.server.http.Http2Drain;
import io.tollgate.server.testing.Await;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * {@link Http2Drain#goAway} on a server connection built like the gateway's (its frame codec and
 * multiplexer): GOAWAY NO_ERROR naming the last stream, the stream in flight still gets its
 * response, a stream opened after the GOAWAY is never served, and the connection then closes.
 */
class Http2DrainTest {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final CompletableFuture<Channel> connection = new CompletableFuture<>();
    private final Map<Integer, Http2StreamChannel> opened = new ConcurrentHashMap<>();
    private Channel server;

    @BeforeEach
    void start() throws InterruptedException {
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(Http2Codecs.server(Http2Options.DEFAULTS),
                                new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
                                    @Override
                                    protected void initChannel(Http2StreamChannel stream) {
                                        stream.pipeline().addLast(new HoldRequests());
                                    }
                                }));
                        connection.complete(ch);
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    @AfterEach
    void stop() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    @Disabled("Http2Drain.goAway closes the connection as soon as the GOAWAY is written although stream 1 is"
            + " still open: the in-flight stream never gets its response (issue 5, open)")
    void goAwayLetsTheStreamInFlightFinishAndRefusesNewOnes() throws Exception {
        try (RawH2 client = new RawH2(((InetSocketAddress) server.localAddress()).getPort())) {
            client.preface().get(1, "/in-flight");
            Channel drained = connection.get(5, TimeUnit.SECONDS);
            Await.until("stream 1 reached the server", Duration.ofSeconds(5), () -> opened.containsKey(1));

            assertThat(Http2Drain.goAway(drained)).isTrue();
            RawH2.Frame goAway = client.await(f -> f.type() == RawH2.GOAWAY);
            assertThat(goAway).isNotNull();
            assertThat(goAway.errorCode()).isEqualTo((int) Http2Error.NO_ERROR.code());
            assertThat(ByteBuffer.wrap(goAway.payload()).getInt(0)).isEqualTo(1);

            client.get(3, "/after-goaway");
            opened.get(1).writeAndFlush(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200"), true));
            List<RawH2.Frame> rest = new ArrayList<>();
            RawH2.Frame frame;
            while ((frame = client.read()) != null) {
                rest.add(frame);
            }

            assertThat(rest).anyMatch(f -> f.type() == RawH2.HEADERS && f.stream() == 1 && f.endsStream());
            assertThat(rest).noneMatch(f -> f.type() == RawH2.HEADERS && f.stream() == 3);
            assertThat(opened).doesNotContainKey(3);
            assertThat(drained.closeFuture().await(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** Keeps each request's stream, unanswered, for the test to answer. */
    private final class HoldRequests extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame) {
                Http2StreamChannel stream = (Http2StreamChannel) ctx.channel();
                opened.put(stream.stream().id(), stream);
            }
            ReferenceCountUtil.release(msg);
        }
    }
}
