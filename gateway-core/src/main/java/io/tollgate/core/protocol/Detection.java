package io.tollgate.core.protocol;

import io.netty.buffer.ByteBuf;

/** What a protocol makes of a connection's first bytes. */
public enum Detection {
    /** The bytes are this protocol's. */
    MATCH,
    /** Too few bytes to tell; wait for more. */
    NEED_MORE,
    /** The bytes are not this protocol's. */
    NO_MATCH;

    /**
     * Compares the readable bytes of {@code in} with {@code prefix}, a protocol's fixed opening
     * (a magic number, a connection preface), without moving either reader index: no match at the
     * first byte that differs, a match once all of the prefix is there, else more bytes needed.
     */
    public static Detection ofPrefix(ByteBuf in, ByteBuf prefix) {
        int start = in.readerIndex();
        int prefixStart = prefix.readerIndex();
        int prefixLength = prefix.readableBytes();
        int compared = Math.min(in.readableBytes(), prefixLength);
        for (int i = 0; i < compared; i++) {
            if (in.getByte(start + i) != prefix.getByte(prefixStart + i)) {
                return NO_MATCH;
            }
        }
        return compared == prefixLength ? MATCH : NEED_MORE;
    }
}
