package io.tollgate.examples.lpp;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.tollgate.core.protocol.Detection;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcCodecException;
import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;

/**
 * LPP for the gateway's RPC engine: detection by the magic, frame boundaries from the lengths
 * (each checked against the largest frame as soon as it is readable), and the frames the gateway
 * writes itself. Gateway-made replies carry the status of {@link LppStatus#of} and nothing else.
 *
 * <p>Stateless and immutable: one instance per limit serves every connection.
 */
public final class LppCodec implements RpcCodec {

    /** A codec with {@link LppProtocol#DEFAULT_MAX_FRAME_BYTES}, as upstream connections use. */
    public static final LppCodec DEFAULTS = new LppCodec(LppProtocol.DEFAULT_MAX_FRAME_BYTES);

    private static final byte[] MAGIC = {LppProtocol.MAGIC_0, LppProtocol.MAGIC_1};

    private final int maxFrameBytes;

    /**
     * A codec that rejects frames longer than {@code maxFrameBytes}.
     *
     * @throws IllegalArgumentException when {@code maxFrameBytes} is below the smallest frame
     */
    public LppCodec(int maxFrameBytes) {
        if (maxFrameBytes < LppProtocol.MIN_FRAME_LENGTH) {
            throw new IllegalArgumentException("maxFrameBytes: " + maxFrameBytes + " (expected: >= "
                    + LppProtocol.MIN_FRAME_LENGTH + ")");
        }
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    public String protocol() {
        return LppProtocol.NAME;
    }

    /** A match on the two magic bytes; the rest is checked by {@link #decode}. */
    @Override
    public Detection detect(ByteBuf in) {
        int start = in.readerIndex();
        int readable = Math.min(in.readableBytes(), MAGIC.length);
        for (int i = 0; i < readable; i++) {
            if (in.getByte(start + i) != MAGIC[i]) {
                return Detection.NO_MATCH;
            }
        }
        return readable == MAGIC.length ? Detection.MATCH : Detection.NEED_MORE;
    }

    /**
     * Checks the magic, version and kind once the head and the service length are readable, then
     * each of the three lengths against the largest frame as soon as it is readable, and returns
     * the whole frame once it is there.
     *
     * @throws RpcCodecException for a bad magic, version or kind, a negative body length, or a
     *     frame over the largest; with the request id once the magic and version are good
     */
    @Override
    public LppFrame decode(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        if (readable < LppProtocol.SERVICE_OFFSET) {
            return null;
        }
        if (in.getByte(start) != LppProtocol.MAGIC_0 || in.getByte(start + 1) != LppProtocol.MAGIC_1) {
            throw new RpcCodecException(String.format("magic 0x%04x (expected: 0xcafe)", in.getUnsignedShort(start)));
        }
        byte version = in.getByte(start + LppProtocol.VERSION_OFFSET);
        if (version != LppProtocol.VERSION) {
            throw new RpcCodecException("version " + version + " (expected: " + LppProtocol.VERSION + ")");
        }
        int kindCode = in.getByte(start + LppProtocol.KIND_OFFSET);
        RpcFrame.Kind kind = LppProtocol.kindOf(kindCode);
        if (kind == null) {
            throw malformed(in, null, "kind " + kindCode + " (expected: 1 to 5)");
        }
        int serviceLength = in.getUnsignedShort(start + LppProtocol.SERVICE_LENGTH_OFFSET);
        int methodLengthAt = LppProtocol.SERVICE_OFFSET + serviceLength;
        checkFits(in, kind, methodLengthAt + 2L + 4L, "service name of " + serviceLength + " bytes");
        if (readable < methodLengthAt + 2) {
            return null;
        }
        int methodLength = in.getUnsignedShort(start + methodLengthAt);
        int bodyLengthAt = methodLengthAt + 2 + methodLength;
        checkFits(in, kind, bodyLengthAt + 4L, "method name of " + methodLength + " bytes");
        if (readable < bodyLengthAt + 4) {
            return null;
        }
        int bodyLength = in.getInt(start + bodyLengthAt);
        if (bodyLength < 0) {
            throw malformed(in, kind, "body length " + bodyLength + " (expected: >= 0)");
        }
        long frameLength = bodyLengthAt + 4L + bodyLength;
        checkFits(in, kind, frameLength, "body of " + bodyLength + " bytes");
        if (readable < frameLength) {
            return null;
        }
        return new LppFrame(in.readRetainedSlice((int) frameLength), kind);
    }

    /** Fails the frame when {@code atLeast}, the length it has at least, is over the largest frame. */
    private void checkFits(ByteBuf in, RpcFrame.Kind kind, long atLeast, String what) {
        if (atLeast > maxFrameBytes) {
            throw malformed(in, kind, what + " makes a frame of at least " + atLeast
                    + " bytes (expected: <= " + maxFrameBytes + ")");
        }
    }

    /**
     * An error about the frame at the reader index, whose head is readable, with its request id;
     * it is answered when it is a request ({@code kind} null when unknown).
     */
    private static RpcCodecException malformed(ByteBuf in, RpcFrame.Kind kind, String message) {
        long requestId = in.getLong(in.readerIndex() + LppProtocol.REQUEST_ID_OFFSET);
        return new RpcCodecException(message, requestId, 0, kind == RpcFrame.Kind.REQUEST);
    }

    /** LPP ids are 64-bit; upstream connections count up to the largest positive one and wrap. */
    @Override
    public long maxRequestId() {
        return Long.MAX_VALUE;
    }

    @Override
    public ByteBuf heartbeat(ByteBufAllocator alloc, long requestId) {
        return empty(alloc, RpcFrame.Kind.HEARTBEAT, LppStatus.OK, requestId);
    }

    @Override
    public ByteBuf heartbeatAck(ByteBufAllocator alloc, RpcFrame heartbeat) {
        if (requireNonNull(heartbeat, "heartbeat").kind() != RpcFrame.Kind.HEARTBEAT) {
            throw new IllegalArgumentException("heartbeat: " + heartbeat + " (expected: a HEARTBEAT)");
        }
        return empty(alloc, RpcFrame.Kind.HEARTBEAT_ACK, LppStatus.OK, heartbeat.requestId());
    }

    /** Whether the ack's status is OK. */
    @Override
    public boolean healthy(RpcFrame heartbeatAck) {
        return ((LppFrame) heartbeatAck).status() == LppStatus.OK.code();
    }

    /** A response with the status for {@code error}; {@code replyForm} is always 0 (one version). */
    @Override
    public ByteBuf errorReply(ByteBufAllocator alloc, int replyForm, long requestId, RpcError error) {
        return empty(alloc, RpcFrame.Kind.RESPONSE, LppStatus.of(error), requestId);
    }

    @Override
    public int httpStatus(RpcError error) {
        return LppStatus.of(error).httpStatus();
    }

    /** A frame without service, method or body. */
    private static ByteBuf empty(ByteBufAllocator alloc, RpcFrame.Kind kind, LppStatus status, long requestId) {
        return LppFrameWriter.write(alloc, kind, status, requestId, "", "", Unpooled.EMPTY_BUFFER);
    }
}
