package io.tollgate.protocols.dubbo;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The scalar half of reading Hessian 2.0 values where they lie in a buffer: the region and the
 * position in it, single bytes, ints and strings (every form: compact {@code 0x00-0x1f}, medium
 * {@code 0x30-0x33}, chunked {@code R...S}), read or stepped over without building anything but the
 * strings asked for. {@link Hessian2Reader} adds maps, lists, objects and their class definitions.
 *
 * <p>The body is read through one NIO view of its bytes (a copy only when they lie in several
 * buffers): a view's absolute reads have none of a {@code ByteBuf}'s per-access reference-count and
 * index checks, which otherwise cost more than the reading itself on every request.
 *
 * <p>Everything is bounded by the region it was given: a value that runs past it, an unknown or
 * misplaced code, a negative length, a count larger than the bytes left or broken UTF-8 raise a
 * {@link DubboCodecException}, never an index error or a loop, and every step consumes at least one
 * byte. Indices of the buffer are untouched, and the buffer MUST stay unreleased while the reader
 * is used.
 *
 * <p>Strings follow hessian's Java writer: lengths count UTF-16 chars, and a supplementary character
 * is two 3-byte surrogates; a 4-byte UTF-8 sequence, which another writer may produce, is read as the
 * two chars it stands for. Not thread-safe; one instance reads one body.
 */
abstract class Hessian2ScalarReader {

    /** The high bit of each of eight bytes: a word without them is eight ASCII bytes. */
    private static final long HIGH_BITS = 0x8080808080808080L;
    /** The region, read with absolute indices from 0. */
    final ByteBuffer in;
    /** The absolute index in the caller's buffer where the region starts. */
    final int start;
    final int end;
    /** The next byte, counted from the region's start. */
    int index;

    Hessian2ScalarReader(ByteBuffer in, int start) {
        this.in = in;
        this.start = start;
        this.end = in.limit();
    }

    /**
     * The region as a view from position 0 to its length, in the machine's byte order, so that
     * {@link #asciiRun} reads words without swapping their bytes; numbers are put together from
     * single bytes, hessian's big-endian order.
     */
    static ByteBuffer regionOf(ByteBuf buf, int index, int length) {
        if (buf.nioBufferCount() != 1) {
            return ByteBuffer.wrap(ByteBufUtil.getBytes(buf, index, length, false)).order(ByteOrder.nativeOrder());
        }
        ByteBuffer view = buf.nioBuffer(index, length);
        return (view.position() == 0 ? view : view.slice()).order(ByteOrder.nativeOrder());
    }

    /** The absolute index of the next value in the caller's buffer. */
    final int index() {
        return start + index;
    }

    /** Whether every byte of the region was read. */
    final boolean isAtEnd() {
        return index >= end;
    }

    /** Reads a string, or {@code null} for a hessian2 null. */
    final String readString() {
        int tag = u8();
        if (tag == 'N') {
            return null;
        }
        if (!isStringTag(tag)) {
            throw unexpected(tag, "a string or null");
        }
        return stringStartingWith(tag);
    }

    /** Steps over a string or a hessian2 null, checking it is one. */
    final void skipStringOrNull() {
        int tag = u8();
        if (tag == 'N') {
            return;
        }
        if (!isStringTag(tag)) {
            throw unexpected(tag, "a string or null");
        }
        string(tag, null);
    }

    /** Whether the next {@code key.length()} bytes, all ASCII, are {@code key}'s chars. */
    final boolean asciiEquals(String key) {
        for (int i = 0; i < key.length(); i++) {
            if (in.get(index + i) != key.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Reads an int in any of its forms. */
    final int readInt() {
        int tag = u8();
        if (tag >= 0x80 && tag <= 0xbf) {
            return tag - 0x90;
        }
        if (tag >= 0xc0 && tag <= 0xcf) {
            return ((tag - 0xc8) << 8) | u8();
        }
        if (tag >= 0xd0 && tag <= 0xd7) {
            return ((tag - 0xd4) << 16) | u16();
        }
        if (tag == 'I') {
            return (u16() << 16) | u16();
        }
        throw unexpected(tag, "an int");
    }

    final void skipString() {
        int tag = u8();
        if (!isStringTag(tag)) {
            throw unexpected(tag, "a string");
        }
        string(tag, null);
    }

    /**
     * The string that starts with {@code tag}. A string of one chunk whose bytes are all ASCII, as
     * service names, methods and most attachments are, becomes a {@code String} straight from the
     * bytes, with no builder in between.
     */
    final String stringStartingWith(int tag) {
        if (tag == 'R') {
            return stringFrom(tag);
        }
        int length = chunkLength(tag);
        if (!isAscii(length)) {
            return chars(length);
        }
        byte[] ascii = new byte[length];
        in.get(index, ascii);
        index += length;
        return new String(ascii, StandardCharsets.ISO_8859_1);
    }

    /** Whether the next {@code length} bytes are in the region and all ASCII: then they are {@code length} chars. */
    final boolean isAscii(int length) {
        return length <= end - index && asciiRun(length) == length;
    }

    /** The next {@code count} chars, decoded from UTF-8. */
    final String chars(int count) {
        StringBuilder out = new StringBuilder(count);
        chars(count, out);
        return out.toString();
    }

    /** The string whose first chunk starts with {@code tag}, the tag already consumed, built char by char. */
    final String stringFrom(int tag) {
        StringBuilder out = new StringBuilder();
        string(tag, out);
        return out.toString();
    }

    /** Reads the string that starts with {@code tag}, chunk after chunk, into {@code out} if not null. */
    final void string(int tag, StringBuilder out) {
        while (true) {
            chars(chunkLength(tag), out);
            if (tag != 'R') {
                return;
            }
            tag = u8();
        }
    }

    /** The length in chars of the string chunk that starts with {@code tag}, read from the bytes after it. */
    final int chunkLength(int tag) {
        if (tag <= 0x1f) {
            return tag;
        }
        if (tag >= 0x30 && tag <= 0x33) {
            return ((tag - 0x30) << 8) | u8();
        }
        if (tag == 'R' || tag == 'S') {
            return u16();
        }
        throw unexpected(tag, "a string chunk");
    }

    /**
     * {@code count} UTF-16 chars encoded as UTF-8, each one to three bytes (four for a surrogate pair),
     * appended to {@code out}, or skipped when it is null (runs of ASCII at once).
     */
    final void chars(int count, StringBuilder out) {
        if (count > end - index) {
            throw malformed("string of " + count + " chars in " + (end - index) + " bytes");
        }
        int read = 0;
        while (read < count) {
            if (out == null) {
                int ascii = asciiRun(Math.min(count - read, end - index));
                index += ascii;
                read += ascii;
                if (read == count) {
                    return;
                }
            }
            read += readChar(count - read, out);
        }
    }

    /** Reads one char, or the two of a 4-byte sequence when {@code left} allows; returns how many. */
    private int readChar(int left, StringBuilder out) {
        int b = u8();
        if (b < 0x80) {
            append(out, (char) b);
            return 1;
        }
        if ((b & 0xe0) == 0xc0) {
            append(out, (char) (((b & 0x1f) << 6) | continuation()));
            return 1;
        }
        if ((b & 0xf0) == 0xe0) {
            append(out, (char) (((b & 0x0f) << 12) | (continuation() << 6) | continuation()));
            return 1;
        }
        if ((b & 0xf8) == 0xf0 && left >= 2) {
            int codePoint = ((b & 0x07) << 18) | (continuation() << 12) | (continuation() << 6) | continuation();
            if (codePoint < Character.MIN_SUPPLEMENTARY_CODE_POINT || codePoint > Character.MAX_CODE_POINT) {
                throw malformed("4-byte UTF-8 sequence for U+" + Integer.toHexString(codePoint));
            }
            if (out != null) {
                out.appendCodePoint(codePoint);
            }
            return 2;
        }
        throw malformed("byte 0x" + Integer.toHexString(b) + " at the start of a char in a string");
    }

    private static void append(StringBuilder out, char c) {
        if (out != null) {
            out.append(c);
        }
    }

    /** How many of the next {@code max} bytes, all in the region, are ASCII: sixteen at a time while they can be. */
    private int asciiRun(int max) {
        int run = 0;
        while (run + 2 * Long.BYTES <= max
                && ((in.getLong(index + run) | in.getLong(index + run + Long.BYTES)) & HIGH_BITS) == 0) {
            run += 2 * Long.BYTES;
        }
        while (run + Long.BYTES <= max && (in.getLong(index + run) & HIGH_BITS) == 0) {
            run += Long.BYTES;
        }
        while (run < max && in.get(index + run) >= 0) {
            run++;
        }
        return run;
    }

    private int continuation() {
        int b = u8();
        if ((b & 0xc0) != 0x80) {
            throw malformed("byte 0x" + Integer.toHexString(b) + " inside a UTF-8 sequence");
        }
        return b & 0x3f;
    }

    /** A list length or field count: an int that is not negative. */
    final int readLength() {
        int length = readInt();
        if (length < 0) {
            throw malformed("length " + length + " (expected: >= 0)");
        }
        return length;
    }

    static boolean isStringTag(int tag) {
        return tag <= 0x1f || tag >= 0x30 && tag <= 0x33 || tag == 'R' || tag == 'S';
    }

    final int peek() {
        return in.get(need(1)) & 0xff;
    }

    final int u8() {
        int b = in.get(need(1)) & 0xff;
        index++;
        return b;
    }

    final int u16() {
        int at = need(2);
        index += 2;
        return (in.get(at) & 0xff) << 8 | in.get(at + 1) & 0xff;
    }

    final void skipBytes(int count) {
        need(count);
        index += count;
    }

    /** The current index, after checking that {@code count} more bytes are in the region. */
    private int need(int count) {
        if (count > end - index) {
            throw malformed("value runs past the end of the body: " + count + " bytes needed, "
                    + (end - index) + " left");
        }
        return index;
    }

    final DubboCodecException unexpected(int tag, String expected) {
        return malformed("code 0x" + Integer.toHexString(tag) + " (expected: " + expected + ")");
    }

    final DubboCodecException malformed(String message) {
        return new DubboCodecException("hessian2 at body offset " + index + ": " + message);
    }
}
