package io.tollgate.benchmarks.dubbo;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.tollgate.server.transport.Transport;

/**
 * The Dubbo upstream of the load benchmark, raw Netty so that it costs little: answers every
 * two-way request at once with the 1 KB echo answer a real Dubbo 3.3.6 provider gave (status 20,
 * hessian2), under the request's id, and heartbeats as Dubbo does; flushes once per read batch.
 * It never decodes a body. Usage: {@code DubboUpstreamServer [port] [threads]}.
 */
public final class DubboUpstreamServer {

    private static final ByteBuf RESPONSE = DubboWire.captured("dubbo-echo-1kb.response.bin");
    private static final ByteBuf BODY = RESPONSE.slice(DubboWire.HEADER_LENGTH,
            RESPONSE.readableBytes() - DubboWire.HEADER_LENGTH);
    /** A heartbeat answer's body: hessian2 null. */
    private static final int HESSIAN_NULL = 'N';

    private DubboUpstreamServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 20301;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        Transport transport = Transport.best();
        EventLoopGroup group = transport.newGroup(threads, "dubbo-upstream");
        Channel server = new ServerBootstrap().group(group).channel(transport.serverChannel())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(DubboWire.frames()).addLast(new Answerer());
                    }
                }).bind("127.0.0.1", port).sync().channel();
        server.closeFuture().sync();
    }

    /** Answers two-way requests and heartbeats; one-way frames get nothing; flushes when the read batch ends. */
    private static final class Answerer extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            if (frame.getShort(0) != DubboWire.MAGIC) {
                ctx.close();
                return;
            }
            int flag = frame.getUnsignedByte(DubboWire.FLAG_OFFSET);
            if ((flag & DubboWire.FLAG_REQUEST) == 0 || (flag & DubboWire.FLAG_TWO_WAY) == 0) {
                return;
            }
            long id = frame.getLong(DubboWire.ID_OFFSET);
            ByteBuf header = ctx.alloc().directBuffer(DubboWire.HEADER_LENGTH).writeShort(DubboWire.MAGIC);
            if ((flag & DubboWire.FLAG_EVENT) != 0) {
                // Response flag: the request's serialization id, plus the event bit.
                header.writeByte(flag & (DubboWire.FLAG_EVENT | 0x1f)).writeByte(DubboWire.STATUS_OK).writeLong(id)
                        .writeInt(1).writeByte(HESSIAN_NULL);
                ctx.write(header);
            } else {
                header.writeBytes(RESPONSE, DubboWire.FLAG_OFFSET, DubboWire.HEADER_LENGTH - DubboWire.FLAG_OFFSET)
                        .setLong(DubboWire.ID_OFFSET, id);
                ctx.write(header);
                ctx.write(BODY.duplicate());
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }
}
