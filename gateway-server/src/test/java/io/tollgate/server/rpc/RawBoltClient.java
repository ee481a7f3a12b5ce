package io.tollgate.server.rpc;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.tollgate.protocols.bolt.BoltCodec;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A Bolt client played by hand over a real socket: writes whatever bytes a test gives it and
 * collects the frames it receives, so that tests can send what no real client would.
 */
public final class RawBoltClient implements AutoCloseable {

    /** What the client received of one frame, read before the frame is released. */
    public record Received(BoltFrame.Kind kind, int requestId, int status) {
    }

    private final Channel channel;
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();

    public RawBoltClient(EventLoopGroup group, int port) throws InterruptedException {
        this.channel = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new RpcFrameDecoder(BoltCodec.DEFAULTS))
                                .addLast(new SimpleChannelInboundHandler<BoltFrame>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, BoltFrame frame) {
                                received.add(new Received(frame.kind(), (int) frame.requestId(),
                                        frame.kind().isRequest() ? -1 : frame.status()));
                            }
                        });
                    }
                }).connect("127.0.0.1", port).sync().channel();
    }

    /** Writes and flushes {@code bytes}, whose ownership passes here. */
    public void send(ByteBuf bytes) {
        channel.writeAndFlush(bytes);
    }

    /** The next frame received, or null when none came within {@code millis}. */
    public Received next(long millis) throws InterruptedException {
        return received.poll(millis, TimeUnit.MILLISECONDS);
    }

    /** Whether the gateway closed the connection within {@code millis}. */
    public boolean closedWithin(long millis) {
        return channel.closeFuture().awaitUninterruptibly(millis);
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }
}
