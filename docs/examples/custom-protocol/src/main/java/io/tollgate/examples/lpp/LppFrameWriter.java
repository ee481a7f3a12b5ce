package io.tollgate.examples.lpp;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.tollgate.protocols.rpc.RpcFrame;

/**
 * Writes LPP frames: the codec's heartbeats, heartbeat acks and error replies, and whatever a
 * client or server speaking LPP sends. The gateway itself never writes a frame it forwards: those
 * leave as the bytes that arrived.
 */
public final class LppFrameWriter {

    private LppFrameWriter() {
    }

    /**
     * A new frame from {@code alloc}, owned by the caller, who writes it (the write releases it) or
     * releases it. {@code body}'s readable bytes are copied; its indices and reference count stay
     * as they are.
     *
     * @param status {@link LppStatus#OK} for requests and heartbeats
     * @param service and {@code method}: empty for none, as in responses and heartbeats
     * @throws IllegalArgumentException when {@code service} or {@code method} is longer than 65535
     *     bytes in UTF-8
     */
    public static ByteBuf write(ByteBufAllocator alloc, RpcFrame.Kind kind, LppStatus status, long requestId,
            String service, String method, ByteBuf body) {
        int serviceLength = nameLength("service", service);
        int methodLength = nameLength("method", method);
        int bodyLength = body.readableBytes();
        ByteBuf out = alloc.buffer(LppProtocol.MIN_FRAME_LENGTH + serviceLength + methodLength + bodyLength);
        out.writeByte(LppProtocol.MAGIC_0)
                .writeByte(LppProtocol.MAGIC_1)
                .writeByte(LppProtocol.VERSION)
                .writeByte(LppProtocol.codeOf(kind))
                .writeByte(status.code())
                .writeLong(requestId)
                .writeShort(serviceLength);
        ByteBufUtil.writeUtf8(out, service);
        out.writeShort(methodLength);
        ByteBufUtil.writeUtf8(out, method);
        out.writeInt(bodyLength).writeBytes(body, body.readerIndex(), bodyLength);
        return out;
    }

    private static int nameLength(String what, String name) {
        int length = ByteBufUtil.utf8Bytes(requireNonNull(name, what));
        if (length > 0xffff) {
            throw new IllegalArgumentException(what + " of " + length + " bytes (expected: <= 65535)");
        }
        return length;
    }
}
