package io.tollgate.protocols.rpc;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;

/**
 * The part of an {@link RpcFrame} that is the same for every protocol: the frame as one retained
 * slice of the bytes that arrived, where it starts and how long it is, and reference counting
 * delegated to that slice. It exists so that a protocol's frame class (Bolt's, Dubbo's, a
 * plug-in's) holds only what is its own: where its fields lie and what they mean.
 *
 * <p>Ownership: the constructor takes over the caller's reference to the slice (normally the one
 * {@link ByteBuf#readRetainedSlice} gave the codec), so a new frame has a reference count of one;
 * {@link #retain()}, {@link #release()} and the rest act on the slice itself. Whoever holds the frame
 * MUST release it or pass it on, as {@link RpcFrame} says. A subclass reads its fields with
 * {@code bytes.getXxx(base + offset)} and MUST NOT change the slice's indices or release it.
 *
 * <p>Not thread-safe: a frame belongs to the event loop that decoded it.
 */
public abstract class AbstractRpcFrame implements RpcFrame {

    /** The whole frame, one retained slice, owned by this frame; its indices never change. */
    protected final ByteBuf bytes;
    /** The index in {@link #bytes} where the frame starts, its reader index when the frame was made. */
    protected final int base;
    /** The whole frame's length in bytes, its readable bytes when the frame was made. */
    protected final int length;

    /**
     * Wraps the readable bytes of {@code bytes}, one whole frame the codec has already checked, and
     * takes over the caller's reference to it.
     */
    protected AbstractRpcFrame(ByteBuf bytes) {
        this.bytes = requireNonNull(bytes, "bytes");
        this.base = bytes.readerIndex();
        this.length = bytes.readableBytes();
    }

    @Override
    public final int frameLength() {
        return length;
    }

    /**
     * The whole frame, not retained. Callers MUST NOT change its indices or release it; to write it,
     * use a {@code retainedDuplicate()}.
     */
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
    public final AbstractRpcFrame retain() {
        bytes.retain();
        return this;
    }

    @Override
    public final AbstractRpcFrame retain(int increment) {
        bytes.retain(increment);
        return this;
    }

    @Override
    public final AbstractRpcFrame touch() {
        bytes.touch();
        return this;
    }

    @Override
    public final AbstractRpcFrame touch(Object hint) {
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
