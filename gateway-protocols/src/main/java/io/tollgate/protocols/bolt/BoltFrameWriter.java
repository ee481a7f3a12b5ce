package io.tollgate.protocols.bolt;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tollgate.protocols.rpc.RpcFrame;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Writes one whole gateway-made Bolt frame, in the layout {@link BoltProtocol} draws, into a new buffer. */
final class BoltFrameWriter {

    private BoltFrameWriter() {
    }

    /**
     * A new frame from {@code alloc}, owned by the caller. {@code content} is copied and stays the
     * caller's; {@code className} and {@code content} may be {@code null}, {@code headers} empty.
     *
     * @param timeoutOrStatus the timeout of a request, the status of a response
     */
    static ByteBuf write(ByteBufAllocator alloc, BoltDialect dialect, RpcFrame.Kind kind, long requestId,
            int timeoutOrStatus, String className, Map<String, String> headers, ByteBuf content) {
        BoltLayout layout = BoltLayout.of(dialect.protocolCode(), kind.isRequest());
        byte[] classBytes = className == null ? new byte[0] : className.getBytes(StandardCharsets.UTF_8);
        int headerLength = BoltHeaderMap.encodedLength(headers);
        int contentLength = content == null ? 0 : content.readableBytes();
        checkFits("className", classBytes.length);
        checkFits("headers", headerLength);
        int crcLength = dialect.hasCrc() ? BoltProtocol.CRC_LENGTH : 0;
        ByteBuf out = alloc.buffer(layout.fixedLength + classBytes.length + headerLength + contentLength + crcLength);
        int start = out.writerIndex();
        out.writeByte(dialect.protocolCode());
        if (layout.isV2()) {
            out.writeByte(dialect.protocolVersion());
        }
        out.writeByte(BoltKinds.type(kind));
        out.writeShort(BoltKinds.cmdCode(kind));
        out.writeByte(BoltProtocol.COMMAND_VERSION);
        out.writeInt((int) requestId);
        out.writeByte(dialect.codec());
        if (layout.isV2()) {
            out.writeByte(dialect.switches());
        }
        if (layout.request) {
            out.writeInt(timeoutOrStatus);
        } else {
            out.writeShort(timeoutOrStatus);
        }
        out.writeShort(classBytes.length);
        out.writeShort(headerLength);
        out.writeInt(contentLength);
        out.writeBytes(classBytes);
        BoltHeaderMap.write(out, headers);
        if (content != null) {
            out.writeBytes(content, content.readerIndex(), contentLength);
        }
        if (crcLength > 0) {
            out.writeInt(BoltCrc.compute(out, start, out.writerIndex() - start));
        }
        return out;
    }

    private static void checkFits(String what, int length) {
        if (length > Short.MAX_VALUE) {
            throw new IllegalArgumentException(
                    what + ": " + length + " bytes encoded (expected: <= " + Short.MAX_VALUE + ")");
        }
    }
}
