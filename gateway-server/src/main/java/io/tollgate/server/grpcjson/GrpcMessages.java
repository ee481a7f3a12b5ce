package io.tollgate.server.grpcjson;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * Reads the length-prefixed messages of a gRPC response body as its DATA frames arrive: a prefix is
 * a compressed flag (1 byte) and a length (4 bytes, big-endian). The gateway asks for no compression,
 * so a compressed message, like one over the limit, is a protocol error. Confined to one event loop.
 */
public final class GrpcMessages {

    /** The prefix's length. */
    static final int PREFIX = 5;

    private final CompositeByteBuf pending;
    private final int maxMessageBytes;

    public GrpcMessages(ByteBufAllocator alloc, int maxMessageBytes) {
        this.pending = alloc.compositeBuffer();
        this.maxMessageBytes = maxMessageBytes;
    }

    /** Takes over {@code data}, the next part of the body. */
    public void add(ByteBuf data) {
        if (data.isReadable()) {
            pending.addComponent(true, data);
        } else {
            data.release();
        }
    }

    /**
     * The next whole message (without its prefix), owned by the caller; null while it is incomplete.
     *
     * @throws IllegalStateException when the message is compressed or longer than the limit
     */
    public ByteBuf next() {
        if (pending.readableBytes() < PREFIX) {
            return null;
        }
        int start = pending.readerIndex();
        if (pending.getByte(start) != 0) {
            throw new IllegalStateException("a compressed message (the gateway asked for none)");
        }
        long length = pending.getUnsignedInt(start + 1);
        if (length > maxMessageBytes) {
            throw new IllegalStateException("a message of " + length + " bytes (over " + maxMessageBytes + ")");
        }
        if (pending.readableBytes() < PREFIX + length) {
            return null;
        }
        pending.skipBytes(PREFIX);
        ByteBuf message = pending.readBytes((int) length);
        pending.discardReadComponents();
        return message;
    }

    /** Whether part of a message is left unread: at the body's end, a truncated message. */
    public boolean hasPartial() {
        return pending.isReadable();
    }

    public void release() {
        pending.release();
    }
}
