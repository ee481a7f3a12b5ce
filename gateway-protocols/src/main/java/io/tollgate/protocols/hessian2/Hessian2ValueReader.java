package io.tollgate.protocols.hessian2;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads whole hessian2 values of either {@link Hessian2Dialect} into plain values (see the package's
 * description) with no class of the writer's: an object becomes a {@link Hessian2Object} of its type
 * name and fields, a typed list or map forgets its type. A ref is the same Java instance as the value
 * it names, so a cyclic graph reads as one; whoever walks it must watch for cycles.
 *
 * <p>Bounded by its region, its nesting depth and its input: a value running past the region, a
 * count larger than the bytes left, an unknown code or an undefined class or ref raise a
 * {@link Hessian2Exception}; every value consumes at least one byte. Not thread-safe; one reader per
 * message, since class definitions and refs are per message.
 */
public final class Hessian2ValueReader {

    /** How deep values nest unless told otherwise: as deep as the Dubbo routing view reads. */
    public static final int DEFAULT_MAX_DEPTH = 64;

    private final Hessian2Cursor in;
    private final Hessian2Dialect dialect;
    private final int maxDepth;
    private final List<Object> refs = new ArrayList<>();
    /** Per class definition: its type, then its field names. */
    private final List<String[]> classes = new ArrayList<>();
    private final List<String> types = new ArrayList<>();
    private int depth;

    /** A reader of {@code length} bytes of {@code buf} from absolute {@code index}. */
    public Hessian2ValueReader(ByteBuf buf, int index, int length, Hessian2Dialect dialect, int maxDepth) {
        this.in = new Hessian2Cursor(buf, index, length);
        this.dialect = dialect;
        this.maxDepth = maxDepth;
    }

    /** A reader of the readable bytes of {@code buf}, nesting at most {@link #DEFAULT_MAX_DEPTH} deep. */
    public static Hessian2ValueReader of(ByteBuf buf, Hessian2Dialect dialect) {
        return new Hessian2ValueReader(buf, buf.readerIndex(), buf.readableBytes(), dialect, DEFAULT_MAX_DEPTH);
    }

    /** Whether every byte was read. */
    public boolean isAtEnd() {
        return in.isAtEnd();
    }

    /** Reads the next value. */
    public Object read() {
        int tag = in.u8();
        Object common = common(tag);
        if (common != NOT_COMMON) {
            return common;
        }
        return dialect == Hessian2Dialect.FINAL ? finalValue(tag) : draftValue(tag);
    }

    /** Reads the next value, which must be a string or null. */
    public String readString() {
        Object value = read();
        if (value != null && !(value instanceof String)) {
            throw in.malformed("a " + value.getClass().getSimpleName() + " where a string was expected");
        }
        return (String) value;
    }

    private static final Object NOT_COMMON = new Object();

    /** The codes both dialects read the same way; {@link #NOT_COMMON} for the others. */
    private Object common(int tag) {
        if (tag <= 0x1f) {
            return chunkedString(tag);
        }
        if (tag <= 0x2f) {
            return in.bytes(tag - 0x20);
        }
        if (tag >= 0x38 && tag <= 0x3f) {
            return (long) ((tag - 0x3c) << 16 | in.u16());
        }
        if (tag >= 0x80) {
            return compactNumber(tag);
        }
        return switch (tag) {
            case 'N' -> null;
            case 'T' -> Boolean.TRUE;
            case 'F' -> Boolean.FALSE;
            case 'I' -> in.s32();
            case 'L' -> in.s64();
            case 'D' -> Double.longBitsToDouble(in.s64());
            case 'S' -> chunkedString(tag);
            case 'B' -> binary(tag);
            default -> NOT_COMMON;
        };
    }

    /** Ints 0x80-0xd7, longs 0xd8-0xff. */
    private Object compactNumber(int tag) {
        if (tag <= 0xbf) {
            return tag - 0x90;
        }
        if (tag <= 0xcf) {
            return (tag - 0xc8) << 8 | in.u8();
        }
        if (tag <= 0xd7) {
            return (tag - 0xd4) << 16 | in.u16();
        }
        if (tag <= 0xef) {
            return (long) (tag - 0xe0);
        }
        return (long) ((tag - 0xf8) << 8 | in.u8());
    }

    private Object finalValue(int tag) {
        if (tag >= 0x30 && tag <= 0x33) {
            return chunkedString(tag);
        }
        if (tag >= 0x34 && tag <= 0x37) {
            return binary(tag);
        }
        if (tag >= 0x60 && tag <= 0x6f) {
            return instance(tag - 0x60);
        }
        if (tag >= 0x70 && tag <= 0x77) {
            finalType();
            return list(tag - 0x70);
        }
        if (tag >= 0x78 && tag <= 0x7f) {
            return list(tag - 0x78);
        }
        return switch (tag) {
            case 'R' -> chunkedString(tag);
            case 'A' -> binary(tag);
            case 'Y' -> (long) in.s32();
            case 0x5b -> 0.0d;
            case 0x5c -> 1.0d;
            case 0x5d -> (double) (byte) in.u8();
            case 0x5e -> (double) (short) in.u16();
            case 0x5f -> in.s32() * 0.001d;
            case 'J' -> Instant.ofEpochMilli(in.s64());
            case 'K' -> Instant.ofEpochMilli(in.s32() * 60_000L);
            case 'V' -> {
                finalType();
                yield list(length());
            }
            case 'X' -> list(length());
            case 'U' -> {
                finalType();
                yield list(-1);
            }
            case 'W' -> list(-1);
            case 'H' -> map();
            case 'M' -> {
                finalType();
                yield map();
            }
            case 'C' -> {
                classDefinition(readString());
                yield read();
            }
            case 'O' -> instance(readInt());
            case 'Q' -> ref(readInt());
            default -> throw in.unexpected(tag, "a hessian2 value");
        };
    }

    private Object draftValue(int tag) {
        return switch (tag) {
            case 's' -> chunkedString(tag);
            case 'b' -> binary(tag);
            case 'w' -> (long) in.s32();
            case 'g' -> 0.0d;
            case 'h' -> 1.0d;
            case 'i' -> (double) (byte) in.u8();
            case 'j' -> (double) (short) in.u16();
            case 'k' -> (double) Float.intBitsToFloat(in.s32());
            case 'd' -> Instant.ofEpochMilli(in.s64());
            case 'V' -> {
                draftType();
                int length = draftLength();
                Object list = list(length);
                if (length >= 0) {
                    end('z');
                }
                yield list;
            }
            case 'v' -> {
                readInt();
                yield list(length());
            }
            case 'M' -> {
                draftType();
                yield map();
            }
            case 'O' -> {
                int length = readInt();
                StringBuilder type = new StringBuilder();
                in.chars(length, type);
                classDefinition(type.toString());
                yield read();
            }
            case 'o' -> instance(readInt());
            case 'R' -> ref(in.s32());
            case 'J' -> ref(in.u8());
            case 'K' -> ref(in.u16());
            default -> throw in.unexpected(tag, "a hessian2 (3.1 draft) value");
        };
    }

    /** The end marker of a container: {@code Z} in the final dialect, {@code z} in the draft. */
    private int endTag() {
        return dialect == Hessian2Dialect.FINAL ? 'Z' : 'z';
    }

    private void end(int tag) {
        int got = in.u8();
        if (got != tag) {
            throw in.unexpected(got, "end of list '" + (char) tag + "'");
        }
    }

    /** {@code count} values, or values up to the end marker when {@code count} is -1. */
    private List<Object> list(int count) {
        if (count > in.remaining()) {
            throw in.malformed(count + " values in " + in.remaining() + " bytes");
        }
        List<Object> list = new ArrayList<>(Math.max(0, Math.min(count, 64)));
        refs.add(list);
        enter();
        if (count >= 0) {
            for (int i = 0; i < count; i++) {
                list.add(read());
            }
        } else {
            while (in.peek() != endTag()) {
                list.add(read());
            }
            in.u8();
        }
        depth--;
        return list;
    }

    private Map<Object, Object> map() {
        Map<Object, Object> map = new LinkedHashMap<>();
        refs.add(map);
        enter();
        while (in.peek() != endTag()) {
            Object key = read();
            map.put(key, read());
        }
        in.u8();
        depth--;
        return map;
    }

    private void classDefinition(String type) {
        int count = length();
        if (count > in.remaining()) {
            throw in.malformed("class definition of " + count + " fields in " + in.remaining() + " bytes");
        }
        String[] definition = new String[count + 1];
        definition[0] = type;
        for (int i = 1; i <= count; i++) {
            definition[i] = readString();
        }
        classes.add(definition);
    }

    private Hessian2Object instance(int definition) {
        if (definition < 0 || definition >= classes.size()) {
            throw in.malformed("object of class definition " + definition + " (defined: " + classes.size() + ")");
        }
        String[] fields = classes.get(definition);
        Hessian2Object object = new Hessian2Object(fields[0], new LinkedHashMap<>());
        refs.add(object);
        enter();
        for (int i = 1; i < fields.length; i++) {
            object.fields().put(fields[i], read());
        }
        depth--;
        return object;
    }

    private Object ref(int ref) {
        if (ref < 0 || ref >= refs.size()) {
            throw in.malformed("ref " + ref + " (values so far: " + refs.size() + ")");
        }
        return refs.get(ref);
    }

    private void enter() {
        if (++depth > maxDepth) {
            throw in.malformed("values nested deeper than " + maxDepth + " levels");
        }
    }

    /** A final-dialect type: a string, added to the types, or an int naming an earlier one. */
    private void finalType() {
        Object type = read();
        if (type instanceof String name) {
            types.add(name);
        } else if (!(type instanceof Integer ref) || ref < 0 || ref >= types.size()) {
            throw in.malformed("type " + type + " (expected: a name or one of " + types.size() + " earlier types)");
        }
    }

    /** A draft type, if one is there: {@code t} and a 16-bit length of chars, or {@code T}/{@code u} and a ref. */
    private void draftType() {
        int tag = in.peek();
        if (tag == 't') {
            in.u8();
            StringBuilder type = new StringBuilder();
            in.chars(in.u16(), type);
            types.add(type.toString());
        } else if (tag == 'T' || tag == 'u') {
            in.u8();
            int ref = readInt();
            if (ref < 0 || ref >= types.size()) {
                throw in.malformed("type ref " + ref + " (types so far: " + types.size() + ")");
            }
        }
    }

    /** A draft list length, if one is there: {@code n} and a byte or {@code l} and an int; else -1. */
    private int draftLength() {
        int tag = in.peek();
        if (tag == 'n') {
            in.u8();
            return in.u8();
        }
        if (tag == 'l') {
            in.u8();
            int length = in.s32();
            if (length < 0) {
                throw in.malformed("list length " + length);
            }
            return length;
        }
        return -1;
    }

    private int readInt() {
        Object value = read();
        if (!(value instanceof Integer number)) {
            throw in.malformed("a " + (value == null ? "null" : value.getClass().getSimpleName())
                    + " where an int was expected");
        }
        return number;
    }

    /** An int that is a length or count: not negative. */
    private int length() {
        int length = readInt();
        if (length < 0) {
            throw in.malformed("length " + length + " (expected: >= 0)");
        }
        return length;
    }

    /** The string whose first chunk starts with {@code tag}, chunk after chunk. */
    private String chunkedString(int tag) {
        int nonFinal = dialect == Hessian2Dialect.FINAL ? 'R' : 's';
        int length = stringChunkLength(tag);
        String ascii = tag == nonFinal ? null : in.asciiChars(length);
        if (ascii != null) {
            return ascii;
        }
        StringBuilder out = new StringBuilder();
        while (true) {
            in.chars(length, out);
            if (tag != nonFinal) {
                return out.toString();
            }
            tag = in.u8();
            length = stringChunkLength(tag);
        }
    }

    private int stringChunkLength(int tag) {
        if (tag <= 0x1f) {
            return tag;
        }
        if (dialect == Hessian2Dialect.FINAL && tag >= 0x30 && tag <= 0x33) {
            return (tag - 0x30) << 8 | in.u8();
        }
        if (tag == 'S' || tag == (dialect == Hessian2Dialect.FINAL ? 'R' : 's')) {
            return in.u16();
        }
        throw in.unexpected(tag, "a string chunk");
    }

    private byte[] binary(int tag) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int nonFinal = dialect == Hessian2Dialect.FINAL ? 'A' : 'b';
        while (true) {
            int length;
            if (tag >= 0x20 && tag <= 0x2f) {
                length = tag - 0x20;
            } else if (dialect == Hessian2Dialect.FINAL && tag >= 0x34 && tag <= 0x37) {
                length = (tag - 0x34) << 8 | in.u8();
            } else if (tag == 'B' || tag == nonFinal) {
                length = in.u16();
            } else {
                throw in.unexpected(tag, "a binary chunk");
            }
            out.writeBytes(in.bytes(length));
            if (tag != nonFinal) {
                return out.toByteArray();
            }
            tag = in.u8();
        }
    }
}
