package io.tollgate.protocols.hessian2;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes hessian2 values of either {@link Hessian2Dialect} as the Java writers of that dialect do,
 * so that a provider's own hessian reads them into its classes: the caller says the hessian type of
 * every value (a class name for objects, typed lists and maps), since the gateway has no classes.
 *
 * <p>Numbers take their compact forms where both dialects read them alike; a double is always its
 * eight bytes (exact); strings and binaries longer than one chunk are cut as hessian's writers cut
 * them. Class definitions are written once per message, at an object's first use of its type and
 * field list. Not thread-safe; one writer per message.
 */
public final class Hessian2ValueWriter {

    /** Chars (or bytes) per chunk of a long string (or binary), as hessian's Java writers cut them. */
    private static final int CHUNK = 0x8000;

    private final ByteBuf out;
    private final Hessian2Dialect dialect;
    /** Class definitions written so far, by type and fields; made at the first object. */
    private Map<String, Integer> classes;

    /** A writer appending at the writer index of {@code out}. */
    public Hessian2ValueWriter(ByteBuf out, Hessian2Dialect dialect) {
        this.out = out;
        this.dialect = dialect;
    }

    public void writeNull() {
        out.writeByte('N');
    }

    public void writeBoolean(boolean value) {
        out.writeByte(value ? 'T' : 'F');
    }

    public void writeInt(int value) {
        if (value >= -16 && value <= 47) {
            out.writeByte(0x90 + value);
        } else if (value >= -2048 && value <= 2047) {
            out.writeByte(0xc8 + (value >> 8)).writeByte(value);
        } else if (value >= -262144 && value <= 262143) {
            out.writeByte(0xd4 + (value >> 16)).writeShort(value);
        } else {
            out.writeByte('I').writeInt(value);
        }
    }

    public void writeLong(long value) {
        if (value >= -8 && value <= 15) {
            out.writeByte(0xe0 + (int) value);
        } else if (value >= -2048 && value <= 2047) {
            out.writeByte(0xf8 + (int) (value >> 8)).writeByte((int) value);
        } else if (value >= -262144 && value <= 262143) {
            out.writeByte(0x3c + (int) (value >> 16)).writeShort((int) value);
        } else {
            out.writeByte('L').writeLong(value);
        }
    }

    public void writeDouble(double value) {
        out.writeByte('D').writeLong(Double.doubleToLongBits(value));
    }

    /** A date, as milliseconds since the epoch. */
    public void writeDate(long epochMillis) {
        out.writeByte(dialect == Hessian2Dialect.FINAL ? 'J' : 'd').writeLong(epochMillis);
    }

    /**
     * A string, or null: chunks of at most 32768 UTF-16 chars ({@code R}, or {@code s} in the draft)
     * ending with a compact, medium (final dialect) or {@code S} chunk, never splitting a surrogate
     * pair, each char one to three bytes of UTF-8 (a supplementary character as its two surrogates).
     */
    public void writeString(String value) {
        writeString(out, value, dialect);
    }

    /** {@link #writeString(String)} for callers that write one string and keep no writer (no allocation). */
    public static void writeString(ByteBuf out, String value, Hessian2Dialect dialect) {
        if (value == null) {
            out.writeByte('N');
            return;
        }
        int offset = 0;
        int remaining = value.length();
        while (remaining > CHUNK) {
            int length = CHUNK;
            if (Character.isHighSurrogate(value.charAt(offset + length - 1))) {
                length--;
            }
            out.writeByte(dialect == Hessian2Dialect.FINAL ? 'R' : 's').writeShort(length);
            writeChars(out, value, offset, length);
            offset += length;
            remaining -= length;
        }
        if (remaining <= 0x1f) {
            out.writeByte(remaining);
        } else if (remaining <= 0x3ff && dialect == Hessian2Dialect.FINAL) {
            out.writeByte(0x30 + (remaining >> 8)).writeByte(remaining & 0xff);
        } else {
            out.writeByte('S').writeShort(remaining);
        }
        writeChars(out, value, offset, remaining);
    }

    /**
     * Each char as UTF-8, a surrogate on its own (three bytes, as hessian writes it): plain UTF-8,
     * written at once, when there is no surrogate.
     */
    private static void writeChars(ByteBuf out, String value, int offset, int length) {
        int end = offset + length;
        int surrogate = offset;
        while (surrogate < end && !Character.isSurrogate(value.charAt(surrogate))) {
            surrogate++;
        }
        if (surrogate == end) {
            ByteBufUtil.writeUtf8(out, value, offset, end);
            return;
        }
        for (int i = offset; i < end; i++) {
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

    /** Bytes, in chunks of at most 32768. */
    public void writeBinary(byte[] value) {
        int offset = 0;
        while (value.length - offset > CHUNK) {
            out.writeByte(dialect == Hessian2Dialect.FINAL ? 'A' : 'b').writeShort(CHUNK);
            out.writeBytes(value, offset, CHUNK);
            offset += CHUNK;
        }
        int remaining = value.length - offset;
        if (remaining <= 15) {
            out.writeByte(0x20 + remaining);
        } else {
            out.writeByte('B').writeShort(remaining);
        }
        out.writeBytes(value, offset, remaining);
    }

    /**
     * Starts a list of {@code length} values, typed {@code type} (a hessian list type: a collection's
     * class name, {@code [int}, {@code [string}, {@code [com.example.User}) or untyped when null;
     * the caller writes the values, then calls {@link #endList}.
     */
    public void startList(String type, int length) {
        if (dialect == Hessian2Dialect.FINAL) {
            if (type == null) {
                out.writeByte('X');
            } else {
                out.writeByte('V');
                writeString(type);
            }
            writeInt(length);
            return;
        }
        out.writeByte('V');
        if (type != null) {
            draftType(type);
        }
        out.writeByte('l').writeInt(length);
    }

    /** Ends the list {@link #startList} started. */
    public void endList() {
        if (dialect == Hessian2Dialect.DRAFT) {
            out.writeByte('z');
        }
    }

    /** Starts a map typed {@code type} (a class name), or untyped when null; entries follow, then {@link #endMap}. */
    public void startMap(String type) {
        if (dialect == Hessian2Dialect.FINAL) {
            if (type == null) {
                out.writeByte('H');
            } else {
                out.writeByte('M');
                writeString(type);
            }
            return;
        }
        out.writeByte('M');
        if (type != null) {
            draftType(type);
        }
    }

    public void endMap() {
        out.writeByte(dialect == Hessian2Dialect.FINAL ? 'Z' : 'z');
    }

    /**
     * Starts an object of class {@code type} with {@code fields} (defining the class on its first
     * use with these fields); the caller then writes one value per field, in order.
     */
    public void startObject(String type, List<String> fields) {
        if (classes == null) {
            classes = new HashMap<>();
        }
        String key = type + '\0' + String.join("\0", fields);
        Integer definition = classes.get(key);
        if (definition == null) {
            definition = classes.size();
            classes.put(key, definition);
            if (dialect == Hessian2Dialect.FINAL) {
                out.writeByte('C');
                writeString(type);
            } else {
                out.writeByte('O');
                writeInt(type.length());
                writeChars(out, type, 0, type.length());
            }
            writeInt(fields.size());
            fields.forEach(this::writeString);
        }
        if (dialect == Hessian2Dialect.DRAFT) {
            out.writeByte('o');
            writeInt(definition);
        } else if (definition <= 0x0f) {
            out.writeByte(0x60 + definition);
        } else {
            out.writeByte('O');
            writeInt(definition);
        }
    }

    /** A draft type: {@code t}, a 16-bit length and the name's chars. */
    private void draftType(String type) {
        if (type.length() > 0xffff) {
            throw new Hessian2Exception("type name of " + type.length() + " chars");
        }
        out.writeByte('t').writeShort(type.length());
        writeChars(out, type, 0, type.length());
    }
}
