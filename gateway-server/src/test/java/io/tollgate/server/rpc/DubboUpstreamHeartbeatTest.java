package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.tollgate.protocols.dubbo.DubboCodec;
import io.tollgate.protocols.dubbo.DubboHeartbeats;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.TestGateway;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An idle upstream Dubbo connection gets the gateway's heartbeat events every
 * {@code heartbeat_interval}, stays open while they are answered, and carries the next call.
 */
class DubboUpstreamHeartbeatTest {

    private static final String CONFIG = """
            listeners:
              - name: dubbo
                port: 0
                protocols: [dubbo]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes: [{ match: { prefix: / }, route: { cluster: raw } }]
            clusters:
              - name: raw
                heartbeat_interval: 150ms
                endpoints: [{ address: 127.0.0.1, port: ${RAW} }]
            """;

    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger heartbeats = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();

    @Test
    void idleUpstreamConnectionIsKeptAliveByHeartbeats() throws Exception {
        byte[] request = capture("dubbo-echo.request.bin");
        byte[] response = capture("dubbo-echo.response.bin");
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Channel server = null;
        try {
            server = answering(group, response);
            int port = ((java.net.InetSocketAddress) server.localAddress()).getPort();
            try (TestGateway gateway = TestGateway.start(CONFIG, Map.of("RAW", port));
                    Socket client = new Socket("127.0.0.1", gateway.port("dubbo"))) {
                DataInputStream in = new DataInputStream(client.getInputStream());
                client.getOutputStream().write(request);
                assertThat(idOf(readFrame(in))).isEqualTo(idOf(request));

                Await.until("3 heartbeats on the idle upstream connection", Duration.ofSeconds(5),
                        () -> heartbeats.get() >= 3);

                client.getOutputStream().write(request);
                assertThat(idOf(readFrame(in))).isEqualTo(idOf(request));
                assertThat(requests.get()).isEqualTo(2);
                assertThat(accepted.get()).as("one upstream connection throughout").isEqualTo(1);
            }
        } finally {
            if (server != null) {
                server.close().syncUninterruptibly();
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** A raw Dubbo upstream: heartbeat events answered and counted, every request answered {@code response} under its id. */
    private Channel answering(EventLoopGroup group, byte[] response) throws InterruptedException {
        return new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        accepted.incrementAndGet();
                        ch.pipeline().addLast(new RpcFrameDecoder(DubboCodec.DEFAULTS))
                                .addLast(new SimpleChannelInboundHandler<RpcFrame>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, RpcFrame frame) {
                                        if (frame.kind() == RpcFrame.Kind.HEARTBEAT) {
                                            heartbeats.incrementAndGet();
                                            ctx.writeAndFlush(DubboHeartbeats.response(ctx.alloc(), frame.requestId()));
                                        } else if (frame.kind() == RpcFrame.Kind.REQUEST) {
                                            requests.incrementAndGet();
                                            byte[] answer = response.clone();
                                            ByteBuffer.wrap(answer).putLong(4, frame.requestId());
                                            ctx.writeAndFlush(Unpooled.wrappedBuffer(answer));
                                        }
                                    }
                                });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
    }

    private static long idOf(byte[] frame) {
        return ByteBuffer.wrap(frame).getLong(4);
    }

    private static byte[] readFrame(DataInputStream in) throws IOException {
        byte[] header = new byte[16];
        in.readFully(header);
        byte[] frame = new byte[16 + ByteBuffer.wrap(header).getInt(12)];
        System.arraycopy(header, 0, frame, 0, 16);
        in.readFully(frame, 16, frame.length - 16);
        return frame;
    }

    private static byte[] capture(String name) throws IOException {
        try (InputStream in = DubboUpstreamHeartbeatTest.class.getResourceAsStream("/vectors/dubbo/" + name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }
}
