package io.tollgate.protocols.dubbo;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** Writes the frames the gateway makes itself: a 16-byte header and a body of one hessian2 string or null. */
final class DubboFrameWriter {

    private DubboFrameWriter() {
    }

    /**
     * A new frame from {@code alloc}, owned by the caller, with a hessian2 body holding {@code body}
     * (null writes the hessian2 null).
     */
    static ByteBuf write(ByteBufAllocator alloc, int flag, int status, long requestId, String body) {
        int bodyCapacity = body == null ? 1 : 3 + 3 * body.length();
        ByteBuf out = alloc.buffer(DubboProtocol.HEADER_LENGTH + bodyCapacity);
        try {
            out.writeShort(DubboProtocol.MAGIC);
            out.writeByte(flag);
            out.writeByte(status);
            out.writeLong(requestId);
            out.writeInt(0);
            Hessian2Writer.writeString(out, body);
            out.setInt(DubboProtocol.BODY_LENGTH_OFFSET, out.readableBytes() - DubboProtocol.HEADER_LENGTH);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }
}
