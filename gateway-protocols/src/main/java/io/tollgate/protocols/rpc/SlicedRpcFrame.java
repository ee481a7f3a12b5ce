package io.tollgate.protocols.rpc;

import io.netty.buffer.ByteBuf;

/**
 * The part of an {@link RpcFrame} that every protocol's frame writes the same way, so that a
 * protocol writes only its fields: the frame is one retained slice of its bytes, its reference
 * count is the slice's, {@link #bytes()} is the slice and {@link #frameLength()} its length; its
 * kind is fixed when it is decoded; its request id is a big-endian 32- or 64-bit field at a fixed
 * offset, read and rewritten in place. A subclass reads each of its own fields at {@link #base}
 * plus the field's offset in {@link #bytes}.
 */
public abstract class SlicedRpcFrame implements RpcFrame {

    /** The whole frame: the slice whose reference the frame took over. */
    protected final ByteBuf bytes;
    /** Where the frame starts in {@link #bytes}. */
    protected final int base;
    /** The whole frame's length in bytes. */
    protected final int length;
    private final Kind kind;
    private final int requestIdOffset;
    private final boolean longRequestId;

    /**
     * Wraps the readable bytes of {@code bytes}, one whole frame the codec checked, and takes over
     * the caller's reference.
     *
     * @param kind what the frame is
     * @param requestIdOffset where the request id starts, counted from the frame's first byte
     * @param requestIdLength the id's length: {@link Integer#BYTES} (read as a signed int widened
     *     with its sign) or {@link Long#BYTES}
     * @throws IllegalArgumentException for any other length, or an id that does not fit the frame
     */
    protected SlicedRpcFrame(ByteBuf bytes, Kind kind, int requestIdOffset, int requestIdLength) {
        if (requestIdLength != Integer.BYTES && requestIdLength != Long.BYTES) {
            throw new IllegalArgumentException("request id length: " + requestIdLength + " (expected: 4 or 8)");
        }
        if (requestIdOffset < 0 || requestIdOffset + requestIdLength > bytes.readableBytes()) {
            throw new IllegalArgumentException("request id at " + requestIdOffset + " of a " + bytes.readableBytes()
                    + "-byte frame");
        }
        this.bytes = bytes;
        this.base = bytes.readerIndex();
        this.length = bytes.readableBytes();
        this.kind = kind;
        this.requestIdOffset = requestIdOffset;
        this.longRequestId = requestIdLength == Long.BYTES;
    }

    @Override
    public final Kind kind() {
        return kind;
    }

    @Override
    public final long requestId() {
        int at = base + requestIdOffset;
        return longRequestId ? bytes.getLong(at) : bytes.getInt(at);
    }

    /**
     * Rewrites the request id in the frame's own bytes, as forwarding on a multiplexed upstream
     * connection needs; a 32-bit id keeps the low 32 bits. The bytes MUST be writable, as the
     * buffers of a socket read are. A protocol whose frames carry a checksum over the id overrides
     * this to recompute it.
     */
    @Override
    public void requestId(long requestId) {
        int at = base + requestIdOffset;
        if (longRequestId) {
            bytes.setLong(at, requestId);
        } else {
            bytes.setInt(at, (int) requestId);
        }
    }

    @Override
    public final int frameLength() {
        return length;
    }

    @Override
    public final ByteBuf bytes() {
        return bytes;
    }

    /**
     * Throws unless this frame is a response or heartbeat acknowledgement, as reading its status
     * ({@link #httpStatus()}, {@link #statusError()}, a protocol's own accessor) requires.
     *
     * @param what what was asked for, for the message, e.g. {@code "status"}
     * @throws IllegalStateException when this frame is a request, oneway request or heartbeat
     */
    protected final void requireResponse(String what) {
        if (kind().isRequest()) {
            throw new IllegalStateException(what + " of a " + kind() + " (expected: a response or heartbeat ack)");
        }
    }

    @Override
    public final int refCnt() {
        return bytes.refCnt();
    }

    @Override
    public final SlicedRpcFrame retain() {
        bytes.retain();
        return this;
    }

    @Override
    public final SlicedRpcFrame retain(int increment) {
        bytes.retain(increment);
        return this;
    }

    @Override
    public final SlicedRpcFrame touch() {
        bytes.touch();
        return this;
    }

    @Override
    public final SlicedRpcFrame touch(Object hint) {
        bytes.touch(hint);
        return this;
    }

    @Override
    public final boolean release() {
        return bytes.release();
    }

    @Override
    public final boolean release(int decrement) {
        return bytes.release(decrement);
    }
}
