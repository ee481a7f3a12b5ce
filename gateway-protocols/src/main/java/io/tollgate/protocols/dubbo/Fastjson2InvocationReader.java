package io.tollgate.protocols.dubbo;

import io.netty.buffer.ByteBuf;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the routing fields of a Dubbo request body in fastjson2 (serialization id 23), which Dubbo
 * 3.2 and later consumers write when a provider's registered {@code prefer.serialization} names it
 * first: every value is a 4-byte big-endian length and that many bytes of one fastjson2 JSONB value.
 * The five leading values are strings (dubbo version, path, version, method, parameter
 * descriptor), then one value per argument, stepped over by its length without being read, then
 * the attachments, a JSONB object whose string entries are kept. An entry whose value is not a
 * string (a number, an object) is stepped over; one of a type this reader does not know ends the
 * reading of the attachments there, the entries read so far kept.
 *
 * <p>JSONB as fastjson2 2.0 writes it: the first byte of a value is its type; strings are
 * {@code 0x49..0x78} (ISO-8859-1, length {@code type - 0x49}), {@code 0x79} (ISO-8859-1),
 * {@code 0x7a} (UTF-8), {@code 0x7b}/{@code 0x7c} (UTF-16LE), {@code 0x7d} (UTF-16BE) and
 * {@code 0x7e} (GB18030), each but the first with its length in bytes as a JSONB int; an object
 * is {@code 0xa6}, its keys and values, {@code 0xa5}; {@code 0x92} puts a class before a value.
 */
final class Fastjson2InvocationReader {

    private static final int STR_FIX_MIN = 0x49;
    private static final int STR_FIX_MAX = 0x78;
    private static final int STR_LATIN1 = 0x79;
    private static final int STR_UTF8 = 0x7a;
    private static final int STR_UTF16 = 0x7b;
    private static final int STR_UTF16LE = 0x7c;
    private static final int STR_UTF16BE = 0x7d;
    private static final int STR_GB18030 = 0x7e;
    private static final int NULL = 0xaf;
    private static final int OBJECT = 0xa6;
    private static final int OBJECT_END = 0xa5;
    private static final int ARRAY_FIX_MIN = 0x94;
    private static final int ARRAY_FIX_MAX = 0xa3;
    private static final int ARRAY = 0xa4;
    private static final int INT32 = 0x48;
    /** A value with its class: the class's name and symbol number, or a symbol number alone, then the value. */
    private static final int TYPED = 0x92;
    /** Nesting the attachments' values may have before the reading stops. */
    private static final int MAX_DEPTH = 16;

    private final ByteBuf buf;
    private final int end;
    private int at;

    private Fastjson2InvocationReader(ByteBuf buf, int index, int length) {
        this.buf = buf;
        this.at = index;
        this.end = index + length;
    }

    /**
     * Reads the body of {@code length} bytes of {@code buf} from absolute {@code index}.
     *
     * @throws DubboCodecException (without request id) when the body is malformed
     */
    static DubboInvocation read(ByteBuf buf, int index, int length) {
        Fastjson2InvocationReader in = new Fastjson2InvocationReader(buf, index, length);
        String dubboVersion = in.stringValue();
        String path = in.stringValue();
        String version = in.stringValue();
        String method = in.stringValue();
        String parameterTypes = in.stringValue();
        int arguments = DubboInvocationReader.argumentCount(parameterTypes);
        for (int i = 0; i < arguments; i++) {
            in.skipValue();
        }
        Map<String, String> attachments = in.at == in.end ? Map.of() : in.attachments();
        return new DubboInvocation(dubboVersion, path, version, method, parameterTypes, attachments);
    }

    /** One length-prefixed value that must be a string or null. */
    private String stringValue() {
        int valueEnd = valueEnd();
        int type = buf.getUnsignedByte(at);
        String value = type == NULL ? null : readString();
        if (value == null && type != NULL) {
            throw new DubboCodecException("fastjson2 body: expected a string, found type 0x" + Integer.toHexString(type));
        }
        at = valueEnd;
        return value;
    }

    private void skipValue() {
        at = valueEnd();
    }

    /** Reads a value's 4-byte length and returns where the value ends; leaves {@link #at} on its first byte. */
    private int valueEnd() {
        need(4);
        int length = buf.getInt(at);
        at += 4;
        if (length < 1 || length > end - at) {
            throw new DubboCodecException("fastjson2 body: a value of " + length + " bytes where " + (end - at)
                    + " are left");
        }
        return at + length;
    }

    /** The attachments value: a JSONB object's string entries. */
    private Map<String, String> attachments() {
        int valueEnd = valueEnd();
        Map<String, String> attachments = new HashMap<>();
        skipClass(); // a map of another class than HashMap carries its class (LinkedHashMap: "LM")
        if (buf.getUnsignedByte(at) == OBJECT) {
            at++;
            try {
                while (at < valueEnd && buf.getUnsignedByte(at) != OBJECT_END) {
                    String key = readString();
                    if (key == null) {
                        break; // a key that is no string: not an attachment
                    }
                    if (isString(buf.getUnsignedByte(at))) {
                        attachments.put(key, readString());
                    } else if (!skipJsonb(0)) {
                        break;
                    }
                }
            } catch (IndexOutOfBoundsException e) {
                throw new DubboCodecException("fastjson2 body: the attachments end early");
            }
        }
        return Map.copyOf(attachments);
    }

    private static boolean isString(int type) {
        return type >= STR_FIX_MIN && type <= STR_GB18030;
    }

    /** The string at {@link #at}, stepped over; null (nothing stepped over) when the value there is no string. */
    private String readString() {
        int type = buf.getUnsignedByte(at);
        if (type >= STR_FIX_MIN && type <= STR_FIX_MAX) {
            at++;
            return text(type - STR_FIX_MIN, StandardCharsets.ISO_8859_1);
        }
        Charset charset = switch (type) {
            case STR_LATIN1 -> StandardCharsets.ISO_8859_1;
            case STR_UTF8 -> StandardCharsets.UTF_8;
            case STR_UTF16, STR_UTF16LE -> StandardCharsets.UTF_16LE;
            case STR_UTF16BE -> StandardCharsets.UTF_16BE;
            case STR_GB18030 -> Charset.forName("GB18030");
            default -> null;
        };
        if (charset == null) {
            return null;
        }
        at++;
        return text(readInt(), charset);
    }

    private String text(int length, Charset charset) {
        if (length < 0) {
            throw new DubboCodecException("fastjson2 body: a string of length " + length);
        }
        need(length);
        String text = buf.toString(at, length, charset);
        at += length;
        return text;
    }

    /** A JSONB int (a string's length, an array's size). */
    private int readInt() {
        need(1);
        int type = buf.getByte(at++);
        if (type >= -16 && type <= 47) {
            return type;
        }
        if (type >= 48 && type <= 63) {
            need(1);
            return ((type - 56) << 8) + buf.getUnsignedByte(at++);
        }
        if (type >= 64 && type <= 71) {
            need(2);
            int value = ((type - 68) << 16) + buf.getUnsignedShort(at);
            at += 2;
            return value;
        }
        if (type == INT32) {
            need(4);
            int value = buf.getInt(at);
            at += 4;
            return value;
        }
        throw new DubboCodecException("fastjson2 body: expected a length, found type 0x" + Integer.toHexString(type & 0xff));
    }

    /**
     * Steps over the value at {@link #at} when its type is one of fastjson2's scalars, strings,
     * arrays or objects; returns false, leaving {@link #at} anywhere, for any other type.
     */
    private boolean skipJsonb(int depth) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        int type = buf.getUnsignedByte(at);
        if (isString(type)) {
            readString();
            return true;
        }
        int signed = (byte) type;
        if ((signed >= -16 && signed <= 71) || signed == INT32 || (signed >= -40 && signed <= -17)) {
            if (signed == INT32 || (signed >= 48 && signed <= 71)) {
                readInt();
            } else {
                at++;
            }
            return true;
        }
        int fixed = scalarLength(signed);
        if (fixed >= 0) {
            at += 1 + fixed;
            return true;
        }
        if (type == OBJECT) {
            at++;
            while (buf.getUnsignedByte(at) != OBJECT_END) {
                if (!skipJsonb(depth + 1) || !skipJsonb(depth + 1)) {
                    return false;
                }
            }
            at++;
            return true;
        }
        if (type == TYPED) {
            skipClass();
            return skipJsonb(depth + 1);
        }
        if ((type >= ARRAY_FIX_MIN && type <= ARRAY_FIX_MAX) || type == ARRAY) {
            at++;
            int size = type == ARRAY ? readInt() : type - ARRAY_FIX_MIN;
            for (int i = 0; i < size; i++) {
                if (!skipJsonb(depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** Steps over the class put before the value at {@link #at}, if there is one. */
    private void skipClass() {
        if (buf.getUnsignedByte(at) == TYPED) {
            at++;
            if (isString(buf.getUnsignedByte(at))) {
                readString();
            }
            readInt();
        }
    }

    /**
     * The bytes after the type byte of the fixed-size scalars: null, booleans, int8/16, the long
     * forms and the float and double forms; -1 for any other type.
     */
    private static int scalarLength(int type) {
        return switch (type) {
            case -81, -80, -79, -78, -77 -> 0; // null, false, true, double 0 and 1
            case -67 -> 1; // int8
            case -68 -> 2; // int16
            case -64, -63, -62, -61, -60, -59, -58, -57 -> 2; // int64 short
            case -56, -55, -54, -53, -52, -51, -50, -49, -48, -47, -46, -45, -44, -43, -42, -41 -> 1; // int64 byte
            case -65, -73 -> 4; // int64 as int32, float
            case -66, -75, -85 -> 8; // int64, double, timestamp millis
            case -84 -> 4; // timestamp seconds
            case -83 -> 4; // timestamp minutes
            default -> -1;
        };
    }

    private void need(int bytes) {
        if (bytes > end - at) {
            throw new DubboCodecException("fastjson2 body: " + bytes + " bytes needed where " + (end - at) + " are left");
        }
    }
}
