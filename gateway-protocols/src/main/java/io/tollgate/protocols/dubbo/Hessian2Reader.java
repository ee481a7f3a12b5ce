package io.tollgate.protocols.dubbo;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads Hessian 2.0 values where they lie in a buffer, so that the routing view can take the few
 * strings it needs from a Dubbo body and step over everything else (the call's arguments) without
 * building a single object or loading a class.
 *
 * <p>It reads maps of strings, and skips any value: null, booleans, ints, longs and doubles in all
 * their compact forms, dates, binary (all forms, chunked too), strings, lists (typed or not, fixed or
 * variable length), maps (typed or not), class definitions and the objects that use them, and refs.
 * Refs are never followed, so a class-definition table per body is the only state; the bytes, ints
 * and strings are read by {@link Hessian2ScalarReader}, with its bounds. Nesting deeper than
 * {@code maxDepth} raises a {@link DubboCodecException}. Not thread-safe; one instance reads one body.
 */
final class Hessian2Reader extends Hessian2ScalarReader {

    private static final int[] NO_CLASSES = new int[0];
    private final int maxDepth;
    private int[] classFieldCounts = NO_CLASSES;
    private int classCount;

    /** A reader of {@code length} bytes of {@code buf} from absolute {@code index}. */
    Hessian2Reader(ByteBuf buf, int index, int length, int maxDepth) {
        this(regionOf(buf, index, length), index, maxDepth);
    }

    private Hessian2Reader(ByteBuffer in, int start, int maxDepth) {
        super(in, start);
        this.maxDepth = maxDepth;
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

    private String stringOrSkip() {
        if (isStringTag(peek())) {
            return stringStartingWith(u8());
        }
        skip(1);
        return null;
    }
}
