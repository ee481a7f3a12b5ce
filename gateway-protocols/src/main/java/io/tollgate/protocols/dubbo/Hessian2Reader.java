package io.tollgate.protocols.dubbo;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads Hessian 2.0 values where they lie in a buffer, so that the routing view can take the few
 * strings it needs from a Dubbo body and step over everything else (the call's arguments) without
 * building a single object or loading a class.
 *
 * <p>It reads strings (every form: compact {@code 0x00-0x1f}, medium {@code 0x30-0x33}, chunked
 * {@code R...S}) and maps of strings, and skips any value: null, booleans, ints, longs and doubles
 * in all their compact forms, dates, binary (all forms, chunked too), strings, lists (typed or not,
 * fixed or variable length), maps (typed or not), class definitions and the objects that use them,
 * and refs. Refs are never followed, so a class-definition table per body is the only state.
 *
 * <p>The body is read through one NIO view of its bytes (a copy only when they lie in several
 * buffers): a view's absolute reads have none of a {@code ByteBuf}'s per-access reference-count and
 * index checks, which otherwise cost more than the reading itself on every request.
 *
 * <p>Everything is bounded by the region it was given: a value that runs past it, an unknown or
 * misplaced code, a negative length, a count larger than the bytes left, nesting deeper than
 * {@code maxDepth} or broken UTF-8 raise a {@link DubboCodecException}, never an index error or a
 * loop, and every step consumes at least one byte. Indices of the buffer are untouched, and the
 * buffer MUST stay unreleased while the reader is used.
 *
 * <p>Strings follow hessian's Java writer: lengths count UTF-16 chars, and a supplementary character
 * is two 3-byte surrogates; a 4-byte UTF-8 sequence, which another writer may produce, is read as the
 * two chars it stands for. Not thread-safe; one instance reads one body.
 */
final class Hessian2Reader {

    private static final int[] NO_CLASSES = new int[0];
    /** The high bit of each of eight bytes: a word without them is eight ASCII bytes. */
    private static final long HIGH_BITS = 0x8080808080808080L;

    /** The region, read with absolute indices from 0. */
    private final ByteBuffer in;
    /** The absolute index in the caller's buffer where the region starts. */
    private final int start;
    private final int end;
    private final int maxDepth;
    /** The next byte, counted from the region's start. */
    private int index;
    private int[] classFieldCounts = NO_CLASSES;
    private int classCount;

    /** A reader of {@code length} bytes of {@code buf} from absolute {@code index}. */
    Hessian2Reader(ByteBuf buf, int index, int length, int maxDepth) {
        this(regionOf(buf, index, length), index, maxDepth);
    }

    private Hessian2Reader(ByteBuffer in, int start, int maxDepth) {
        this.in = in;
        this.start = start;
        this.end = in.limit();
        this.maxDepth = maxDepth;
    }

    /**
     * The region as a view from position 0 to its length, in the machine's byte order, so that
     * {@link #asciiRun} reads words without swapping their bytes; numbers are put together from
     * single bytes, hessian's big-endian order.
     */
    private static ByteBuffer regionOf(ByteBuf buf, int index, int length) {
        if (buf.nioBufferCount() != 1) {
            return ByteBuffer.wrap(ByteBufUtil.getBytes(buf, index, length, false)).order(ByteOrder.nativeOrder());
        }
        ByteBuffer view = buf.nioBuffer(index, length);
        return (view.position() == 0 ? view : view.slice()).order(ByteOrder.nativeOrder());
    }

    /** The absolute index of the next value in the caller's buffer. */
    int index() {
        return start + index;
    }

    /** Whether every byte of the region was read. */
    boolean isAtEnd() {
        return index >= end;
    }

    /** Reads a string, or {@code null} for a hessian2 null. */
    String readString() {
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
    void skipStringOrNull() {
        int tag = u8();
        if (tag == 'N') {
            return;
        }
        if (!isStringTag(tag)) {
            throw unexpected(tag, "a string or null");
        }
        string(tag, null);
    }

    /**
     * Reads a map ({@code H}, or {@code M} with its type) keeping the entries whose key and value are
     * both strings and skipping the others; a hessian2 null reads as an empty map. The first value of
     * a repeated key wins. The map is unmodifiable.
     */
    Map<String, String> readStringMap() {
        int tag = u8();
        if (tag == 'N') {
            return Map.of();
        }
        if (tag == 'M') {
            skipType();
        } else if (tag != 'H') {
            throw unexpected(tag, "a map or null");
        }
        Map<String, String> map = new HashMap<>();
        while (peek() != 'Z') {
            String key = stringOrSkip();
            String value = stringOrSkip();
            if (key != null && value != null) {
                map.putIfAbsent(key, value);
            }
        }
        index++;
        return Collections.unmodifiableMap(map);
    }

    /**
     * A reader of the same region from absolute {@code at}, knowing the class definitions this one
     * has read so far, so that a value there may use them; this reader is left as it is.
     */
    Hessian2Reader forkAt(int at) {
        Hessian2Reader fork = new Hessian2Reader(in, start, maxDepth);
        fork.index = at - start;
        if (classCount > 0) {
            fork.classFieldCounts = Arrays.copyOf(classFieldCounts, classFieldCounts.length);
            fork.classCount = classCount;
        }
        return fork;
    }

    /**
     * Looks {@code key} up in the map at the reader's position without building the map: the value of
     * the first entry whose key is the string {@code key} and whose value is a string, as
     * {@link #readStringMap} would keep it, or null. Keys are compared where they lie; only the value
     * found becomes a {@code String}.
     */
    String findInStringMap(String key) {
        String[] found = new String[1];
        scanStringMap(new String[] {key}, found, true);
        return found[0];
    }

    /**
     * Steps over the map at the reader's position, checking it is one as {@link #readStringMap} does,
     * and for each of {@code keys} sets the same index of {@code values} to its value, as
     * {@link #readStringMap} would keep it (first string-valued entry), or leaves it null. Keys are
     * compared where they lie; only the values found become {@code String}s.
     *
     * @param stopAtFirst stop at the first value found (a lookup) instead of checking the whole map
     */
    void scanStringMap(String[] keys, String[] values, boolean stopAtFirst) {
        int tag = u8();
        if (tag == 'N') {
            return;
        }
        if (tag == 'M') {
            skipType();
        } else if (tag != 'H') {
            throw unexpected(tag, "a map or null");
        }
        while (peek() != 'Z') {
            int key = nextKeyIndex(keys);
            if (key >= 0 && values[key] == null && isStringTag(peek())) {
                values[key] = stringStartingWith(u8());
                if (stopAtFirst) {
                    return;
                }
            } else {
                skip(1);
            }
        }
        index++;
    }

    /**
     * Steps over the map at the reader's position, checking it as {@link #readStringMap} does, and
     * returns where its parts lie, as absolute indices: [0] its first entry (after {@code H}, or
     * {@code M} and its type), [1] its closing {@code Z}, then the start and end of each entry whose key
     * is one of {@code keys} and whose value is a string or null. Null when the map is a hessian2 null.
     */
    int[] mapLayout(String[] keys) {
        int tag = u8();
        if (tag == 'N') {
            return null;
        }
        if (tag == 'M') {
            skipType();
        } else if (tag != 'H') {
            throw unexpected(tag, "a map or null");
        }
        int[] layout = new int[2 + 2 * keys.length];
        int found = 2;
        layout[0] = index();
        while (peek() != 'Z') {
            int entryStart = index();
            int key = nextKeyIndex(keys);
            int valueTag = peek();
            skip(1);
            if (key >= 0 && (valueTag == 'N' || isStringTag(valueTag))) {
                if (found == layout.length) {
                    layout = Arrays.copyOf(layout, layout.length * 2);
                }
                layout[found++] = entryStart;
                layout[found++] = index();
            }
        }
        layout[1] = index();
        index++;
        return Arrays.copyOf(layout, found);
    }

    /** Consumes the next map key; the index of {@code keys} it equals, or -1 when it is none of them or not a string. */
    private int nextKeyIndex(String[] keys) {
        int tag = peek();
        if (!isStringTag(tag)) {
            skip(1);
            return -1;
        }
        index++;
        if (tag == 'R') {
            return indexOf(keys, stringFrom(tag));
        }
        int length = chunkLength(tag);
        if (!isAscii(length)) {
            return indexOf(keys, chars(length));
        }
        int match = -1;
        for (int i = 0; i < keys.length && match < 0; i++) {
            if (keys[i].length() == length && asciiEquals(keys[i])) {
                match = i;
            }
        }
        index += length;
        return match;
    }

    private static int indexOf(String[] keys, String key) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether the next {@code key.length()} bytes, all ASCII, are {@code key}'s chars. */
    private boolean asciiEquals(String key) {
        for (int i = 0; i < key.length(); i++) {
            if (in.get(index + i) != key.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Reads an int in any of its forms. */
    int readInt() {
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

    /** Steps over one value of any kind, with the class definitions that precede it. */
    void skipValue() {
        skip(0);
    }

    private void skip(int depth) {
        if (depth >= maxDepth) {
            throw malformed("values nested deeper than " + maxDepth + " levels");
        }
        int tag = u8();
        while (tag == 'C') {
            readClassDefinition();
            tag = u8();
        }
        if (isStringTag(tag)) {
            string(tag, null);
        } else if (tag >= 0x80) {
            skipCompactNumber(tag);
        } else if (tag >= 0x70) {
            if (tag <= 0x77) {
                skipType();
            }
            skipValues(tag & 0x07, depth);
        } else if (tag >= 0x60) {
            skipValues(fieldCount(tag - 0x60), depth);
        } else if (tag >= 0x20 && tag <= 0x2f) {
            skipBytes(tag - 0x20);
        } else if (tag >= 0x34 && tag <= 0x37) {
            skipBytes(((tag - 0x34) << 8) | u8());
        } else if (tag >= 0x38 && tag <= 0x3f) {
            skipBytes(2);
        } else {
            skipTagged(tag, depth);
        }
    }

    /** Ints 0x80-0xd7 and longs 0xd8-0xff: the bytes after the code. */
    private void skipCompactNumber(int tag) {
        if (tag <= 0xbf || tag >= 0xd8 && tag <= 0xef) {
            return;
        }
        skipBytes(tag <= 0xcf || tag >= 0xf0 ? 1 : 2);
    }

    /** The values whose code is a letter (0x40-0x5f). */
    private void skipTagged(int tag, int depth) {
        switch (tag) {
            case 'N', 'T', 'F', 0x5b, 0x5c -> {
                // null, true, false, double 0.0 and 1.0: the code is the value
            }
            case 0x5d -> skipBytes(1);
            case 0x5e -> skipBytes(2);
            case 'I', 'Y', 0x4b, 0x5f -> skipBytes(4);
            case 'L', 'D', 0x4a -> skipBytes(8);
            case 'A', 'B' -> skipBinary(tag);
            case 'H' -> skipEntries(depth);
            case 'M' -> {
                skipType();
                skipEntries(depth);
            }
            case 'U' -> {
                skipType();
                skipUntilEnd(depth);
            }
            case 'W' -> skipUntilEnd(depth);
            case 'V' -> {
                skipType();
                skipValues(readLength(), depth);
            }
            case 'X' -> skipValues(readLength(), depth);
            case 'O' -> skipValues(fieldCount(readInt()), depth);
            case 'Q' -> readInt();
            default -> throw unexpected(tag, "a value");
        }
    }

    /** 'C' type-name field-count field-name*: records the class's field count for its instances. */
    private void readClassDefinition() {
        skipString();
        int fields = readLength();
        if (fields > end - index) {
            throw malformed("class definition of " + fields + " fields in " + (end - index) + " bytes");
        }
        for (int i = 0; i < fields; i++) {
            skipString();
        }
        if (classCount == classFieldCounts.length) {
            classFieldCounts = Arrays.copyOf(classFieldCounts, Math.max(8, classCount * 2));
        }
        classFieldCounts[classCount++] = fields;
    }

    private int fieldCount(int definition) {
        if (definition < 0 || definition >= classCount) {
            throw malformed("object of class definition " + definition + " (expected: 0.." + (classCount - 1) + ")");
        }
        return classFieldCounts[definition];
    }

    /** A type: a string naming it, or an int referring to an earlier one. */
    private void skipType() {
        if (isStringTag(peek())) {
            skipString();
        } else {
            readInt();
        }
    }

    private void skipEntries(int depth) {
        while (peek() != 'Z') {
            skip(depth + 1);
            skip(depth + 1);
        }
        index++;
    }

    private void skipUntilEnd(int depth) {
        while (peek() != 'Z') {
            skip(depth + 1);
        }
        index++;
    }

    private void skipValues(int count, int depth) {
        if (count > end - index) {
            throw malformed(count + " values in " + (end - index) + " bytes");
        }
        for (int i = 0; i < count; i++) {
            skip(depth + 1);
        }
    }

    /** Binary chunks: 'A' non-final chunks, then any final form. */
    private void skipBinary(int tag) {
        while (true) {
            if (tag == 'A' || tag == 'B') {
                skipBytes(u16());
            } else if (tag >= 0x20 && tag <= 0x2f) {
                skipBytes(tag - 0x20);
            } else if (tag >= 0x34 && tag <= 0x37) {
                skipBytes(((tag - 0x34) << 8) | u8());
            } else {
                throw unexpected(tag, "a binary chunk");
            }
            if (tag != 'A') {
                return;
            }
            tag = u8();
        }
    }

    private void skipString() {
        int tag = u8();
        if (!isStringTag(tag)) {
            throw unexpected(tag, "a string");
        }
        string(tag, null);
    }

    private String stringOrSkip() {
        if (isStringTag(peek())) {
            return stringStartingWith(u8());
        }
        skip(1);
        return null;
    }

    /**
     * The string that starts with {@code tag}. A string of one chunk whose bytes are all ASCII, as
     * service names, methods and most attachments are, becomes a {@code String} straight from the
     * bytes, with no builder in between.
     */
    private String stringStartingWith(int tag) {
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
    private boolean isAscii(int length) {
        return length <= end - index && asciiRun(length) == length;
    }

    /** The next {@code count} chars, decoded from UTF-8. */
    private String chars(int count) {
        StringBuilder out = new StringBuilder(count);
        chars(count, out);
        return out.toString();
    }

    /** The string whose first chunk starts with {@code tag}, the tag already consumed, built char by char. */
    private String stringFrom(int tag) {
        StringBuilder out = new StringBuilder();
        string(tag, out);
        return out.toString();
    }

    /** Reads the string that starts with {@code tag}, chunk after chunk, into {@code out} if not null. */
    private void string(int tag, StringBuilder out) {
        while (true) {
            chars(chunkLength(tag), out);
            if (tag != 'R') {
                return;
            }
            tag = u8();
        }
    }

    /** The length in chars of the string chunk that starts with {@code tag}, read from the bytes after it. */
    private int chunkLength(int tag) {
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
    private void chars(int count, StringBuilder out) {
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
    private int readLength() {
        int length = readInt();
        if (length < 0) {
            throw malformed("length " + length + " (expected: >= 0)");
        }
        return length;
    }

    private static boolean isStringTag(int tag) {
        return tag <= 0x1f || tag >= 0x30 && tag <= 0x33 || tag == 'R' || tag == 'S';
    }

    private int peek() {
        return in.get(need(1)) & 0xff;
    }

    private int u8() {
        int b = in.get(need(1)) & 0xff;
        index++;
        return b;
    }

    private int u16() {
        int at = need(2);
        index += 2;
        return (in.get(at) & 0xff) << 8 | in.get(at + 1) & 0xff;
    }

    private void skipBytes(int count) {
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

    private DubboCodecException unexpected(int tag, String expected) {
        return malformed("code 0x" + Integer.toHexString(tag) + " (expected: " + expected + ")");
    }

    private DubboCodecException malformed(String message) {
        return new DubboCodecException("hessian2 at body offset " + index + ": " + message);
    }
}
