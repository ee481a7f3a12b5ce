package io.tollgate.protocols.dubbo;

import io.netty.buffer.ByteBuf;

/**
 * Writes the only hessian2 values the gateway makes itself, a string (the message of an error
 * reply) and null (the body of heartbeats), as hessian's Java writer does, so that every Dubbo
 * consumer reads them back.
 */
final class Hessian2Writer {

    /** Chars per chunk of a long string, as hessian's Java writer cuts them. */
    private static final int CHUNK = 0x8000;

    private Hessian2Writer() {
    }

    /**
     * Appends {@code value} at the writer index of {@code out}: null as {@code N}; a string as chunks
     * of at most 32768 UTF-16 chars ({@code R}) ending with a compact, medium or {@code S} chunk, each
     * char as one to three bytes of UTF-8 (a supplementary character as its two surrogates), never
     * splitting a surrogate pair across chunks.
     */
    static void writeString(ByteBuf out, String value) {
        if (value == null) {
            out.writeByte(DubboProtocol.HESSIAN2_NULL);
            return;
        }
        int offset = 0;
        int remaining = value.length();
        while (remaining > CHUNK) {
            int length = CHUNK;
            if (Character.isHighSurrogate(value.charAt(offset + length - 1))) {
                length--;
            }
            out.writeByte('R').writeShort(length);
            writeChars(out, value, offset, length);
            offset += length;
            remaining -= length;
        }
        if (remaining <= 0x1f) {
            out.writeByte(remaining);
        } else if (remaining <= 0x3ff) {
            out.writeByte(0x30 + (remaining >> 8)).writeByte(remaining & 0xff);
        } else {
            out.writeByte('S').writeShort(remaining);
        }
        writeChars(out, value, offset, remaining);
    }

    private static void writeChars(ByteBuf out, String value, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            char c = value.charAt(i);
            if (c < 0x80) {
                out.writeByte(c);
            } else if (c < 0x800) {
                out.writeByte(0xc0 | c >> 6).writeByte(0x80 | c & 0x3f);
            } else {
                out.writeByte(0xe0 | c >> 12).writeByte(0x80 | c >> 6 & 0x3f).writeByte(0x80 | c & 0x3f);
            }
        }
    }
}
