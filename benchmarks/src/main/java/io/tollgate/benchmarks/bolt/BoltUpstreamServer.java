package io.tollgate.benchmarks.bolt;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.tollgate.protocols.bolt.BoltDecoder;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltHeartbeats;
import io.tollgate.protocols.bolt.BoltResponses;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.server.transport.Transport;
import java.util.Map;

/**
 * The Bolt upstream of the load benchmark: answers every request at once with a 1 KiB body,
 * flushing once per read batch. Usage: {@code BoltUpstreamServer [port] [threads]}.
 */
public final class BoltUpstreamServer {

    private static final ByteBuf BODY = Unpooled.unreleasableBuffer(Unpooled.directBuffer(1024).writeZero(1024));

    private BoltUpstreamServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 12201;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        Transport transport = Transport.best();
        EventLoopGroup group = transport.newGroup(threads, "bolt-upstream");
        Channel server = new ServerBootstrap().group(group).channel(transport.serverChannel())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new BoltDecoder()).addLast(new Answerer());
                    }
                }).bind("127.0.0.1", port).sync().channel();
        server.closeFuture().sync();
    }

    /** Answers requests and heartbeats; flushes when the read batch ends. */
    private static final class Answerer extends SimpleChannelInboundHandler<BoltFrame> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, BoltFrame frame) {
            if (frame.kind() == BoltFrame.Kind.HEARTBEAT) {
                ctx.write(BoltHeartbeats.ack(ctx.alloc(), frame));
            } else if (frame.kind() == BoltFrame.Kind.REQUEST) {
                ctx.write(BoltResponses.response(ctx.alloc(), frame.dialect(), frame.requestId(), BoltStatus.SUCCESS,
                        null, Map.of(), BODY.duplicate()));
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }
}
