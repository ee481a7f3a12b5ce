package io.tollgate.benchmarks.dubbo;

import io.netty.buffer.ByteBuf;
import io.tollgate.benchmarks.rpc.RpcWire;
import io.netty.channel.ChannelHandlerContext;
import io.tollgate.benchmarks.rpc.RpcUpstreamServer;

/**
 * The Dubbo upstream of the load benchmark, raw Netty so that it costs little: answers every
 * two-way request at once with the 1 KB echo answer a real Dubbo 3.3.6 provider gave (status 20,
 * hessian2), under the request's id, and heartbeats as Dubbo does; flushes once per read batch.
 * It never decodes a body; see {@link RpcUpstreamServer}. Usage: {@code DubboUpstreamServer [port] [threads]}.
 */
public final class DubboUpstreamServer {

    private static final ByteBuf RESPONSE = RpcWire.captured("/dubbo/dubbo-echo-1kb.response.bin");
    private static final ByteBuf BODY = RESPONSE.slice(DubboWire.HEADER_LENGTH,
            RESPONSE.readableBytes() - DubboWire.HEADER_LENGTH);
    /** A heartbeat answer's body: hessian2 null. */
    private static final int HESSIAN_NULL = 'N';

    private DubboUpstreamServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        RpcUpstreamServer.serve(args, 20301, DubboWire.FRAMES, DubboUpstreamServer::answer);
    }

    /** Answers two-way requests and heartbeats; one-way frames get nothing; a frame without the magic closes. */
    static void answer(ChannelHandlerContext ctx, ByteBuf frame) {
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
}
