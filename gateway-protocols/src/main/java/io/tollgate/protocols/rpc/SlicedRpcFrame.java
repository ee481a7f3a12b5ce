package io.tollgate.protocols.rpc;

import io.netty.buffer.ByteBuf;

/**
 * The part of an {@link RpcFrame} that every protocol's frame writes the same way, so that a
 * protocol writes only its fields: the frame is one retained slice of its bytes, its reference
 * count is the slice's, {@link #bytes()} is the slice and {@link #frameLength()} its length.
 * A subclass reads each field at {@link #base} plus the field's offset in {@link #bytes}.
 */
public abstract class SlicedRpcFrame implements RpcFrame {

    /** The whole frame: the slice whose reference the frame took over. */
    protected final ByteBuf bytes;
    /** Where the frame starts in {@link #bytes}. */
    protected final int base;
    /** The whole frame's length in bytes. */
    protected final int length;

    /**
     * Wraps the readable bytes of {@code bytes}, one whole frame the codec checked, and takes over
     * the caller's reference.
     */
    protected SlicedRpcFrame(ByteBuf bytes) {
        this.bytes = bytes;
        this.base = bytes.readerIndex();
        this.length = bytes.readableBytes();
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
