package io.tollgate.protocols.hessian2;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;
import java.nio.charset.StandardCharsets;

/**
 * A bounded position in a region of a buffer, read with absolute indices: every read checks the
 * bytes are there and raises a {@link Hessian2Exception} naming the offset when they are not. The
 * buffer's own indices are untouched; it must stay unreleased while read.
 */
final class Hessian2Cursor {

    /** Goes on while the byte is ASCII. */
    private static final ByteProcessor ASCII = value -> value >= 0;

    private final ByteBuf buf;
    private final int start;
    private final int end;
    private int index;

    Hessian2Cursor(ByteBuf buf, int index, int length) {
        this.buf = buf;
        this.start = index;
        this.index = index;
        this.end = index + length;
    }

    boolean isAtEnd() {
        return index >= end;
    }

    /** How many bytes are left. */
    int remaining() {
        return end - index;
    }

    int peek() {
        need(1);
        return buf.getUnsignedByte(index);
    }

    int u8() {
        need(1);
        return buf.getUnsignedByte(index++);
    }

    int u16() {
        need(2);
        int value = buf.getUnsignedShort(index);
        index += 2;
        return value;
    }

    int s32() {
        need(4);
        int value = buf.getInt(index);
        index += 4;
        return value;
    }

    long s64() {
        need(8);
        long value = buf.getLong(index);
        index += 8;
        return value;
    }

    /** The next {@code count} bytes, copied. */
    byte[] bytes(int count) {
        need(count);
        byte[] out = new byte[count];
        buf.getBytes(index, out);
        index += count;
        return out;
    }

    /**
     * The next {@code count} chars when they are {@code count} ASCII bytes, the usual text, decoded at
     * once; null, and nothing read, when they are not (then {@link #chars} reads them).
     */
    String asciiChars(int count) {
        if (count > remaining() || buf.forEachByte(index, count, ASCII) >= 0) {
            return null;
        }
        String text = buf.toString(index, count, StandardCharsets.US_ASCII);
        index += count;
        return text;
    }

    /** Appends {@code count} UTF-16 chars, read as hessian writes them (UTF-8; a 4-byte sequence is two chars). */
    void chars(int count, StringBuilder out) {
        if (count > remaining()) {
            throw malformed("string of " + count + " chars in " + remaining() + " bytes");
        }
        out.ensureCapacity(out.length() + count);
        int read = 0;
        while (read < count) {
            int b = u8();
            if (b < 0x80) {
                out.append((char) b);
            } else if ((b & 0xe0) == 0xc0) {
                out.append((char) ((b & 0x1f) << 6 | continuation()));
            } else if ((b & 0xf0) == 0xe0) {
                out.append((char) ((b & 0x0f) << 12 | continuation() << 6 | continuation()));
            } else if ((b & 0xf8) == 0xf0 && count - read >= 2) {
                int codePoint = (b & 0x07) << 18 | continuation() << 12 | continuation() << 6 | continuation();
                if (codePoint < Character.MIN_SUPPLEMENTARY_CODE_POINT || codePoint > Character.MAX_CODE_POINT) {
                    throw malformed("4-byte UTF-8 sequence for U+" + Integer.toHexString(codePoint));
                }
                out.appendCodePoint(codePoint);
                read++;
            } else {
                throw malformed("byte 0x" + Integer.toHexString(b) + " starting a char");
            }
            read++;
        }
    }

    private int continuation() {
        int b = u8();
        if ((b & 0xc0) != 0x80) {
            throw malformed("byte 0x" + Integer.toHexString(b) + " inside a UTF-8 sequence");
        }
        return b & 0x3f;
    }

    private void need(int count) {
        if (count < 0 || count > end - index) {
            throw malformed("value runs past the end: " + count + " bytes needed, " + (end - index) + " left");
        }
    }

    Hessian2Exception malformed(String message) {
        return new Hessian2Exception("hessian2 at offset " + (index - start) + ": " + message);
    }

    Hessian2Exception unexpected(int tag, String expected) {
        return malformed("code 0x" + Integer.toHexString(tag) + " (expected: " + expected + ")");
    }
}
