package io.tollgate.protocols.bolt;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads and writes the Bolt header map: {@code [int32 keyLen][key][int32 valueLen][value]} repeated,
 * UTF-8, length -1 for {@code null}. Routing looks a few keys up on every request, so a lookup
 * compares keys where they lie and makes only the value found a {@code String}; the whole map is
 * built only when asked for.
 */
final class BoltHeaderMap {

    private static final int NULL_LENGTH = -1;

    private BoltHeaderMap() {
    }

    /**
     * Parses {@code length} bytes of {@code buf} from absolute {@code index}, indices untouched. Keeps
     * the first value of a repeated key and skips {@code null} keys, which no one can look up.
     *
     * @throws BoltCodecException when a length is below -1 or runs past the header map
     */
    static Map<String, String> parse(ByteBuf buf, int index, int length, BoltFrame frame) {
        if (length == 0) {
            return Map.of();
        }
        Map<String, String> headers = new HashMap<>();
        int end = index + length;
        int at = index;
        while (at < end) {
            String key = readString(buf, at, end, frame);
            at += stringLength(buf, at);
            String value = readString(buf, at, end, frame);
            at += stringLength(buf, at);
            if (key != null) {
                headers.putIfAbsent(key, value);
            }
        }
        return Collections.unmodifiableMap(headers);
    }

    /**
     * Checks that the {@code length} bytes of {@code buf} from absolute {@code index} are a header
     * map, as {@link #parse} would: key and value pairs, every length within the map.
     *
     * @throws BoltCodecException when a length is below -1 or runs past the header map, or a key
     *     has no value
     */
    static void check(ByteBuf buf, int index, int length, BoltFrame frame) {
        int end = index + length;
        int at = index;
        while (at < end) {
            at += checkedStringLength(buf, at, end, frame);
            at += checkedStringLength(buf, at, end, frame);
        }
    }

    /**
     * The first value that is not {@code null} of the entries whose key's UTF-8 bytes are
     * {@code key}'s readable bytes, as {@link #parse} keeps it, or {@code null}; in a header map
     * {@link #check} accepted.
     */
    static String find(ByteBuf buf, int index, int length, ByteBuf key) {
        int keyLength = key.readableBytes();
        int end = index + length;
        int at = index;
        while (at < end) {
            int found = buf.getInt(at);
            boolean match = found == keyLength && ByteBufUtil.equals(buf, at + 4, key, key.readerIndex(), keyLength);
            at += 4 + Math.max(found, 0);
            int valueLength = buf.getInt(at);
            if (match && valueLength >= 0) {
                return buf.toString(at + 4, valueLength, StandardCharsets.UTF_8);
            }
            at += 4 + Math.max(valueLength, 0);
        }
        return null;
    }

    /** How many bytes {@link #write} takes for {@code headers}. */
    static int encodedLength(Map<String, String> headers) {
        int length = 0;
        for (Map.Entry<String, String> entry : headers.entrySet()) {
            length += encodedLength(entry.getKey()) + encodedLength(entry.getValue());
        }
        return length;
    }

    /** Appends {@code headers} at the writer index of {@code out}. */
    static void write(ByteBuf out, Map<String, String> headers) {
        for (Map.Entry<String, String> entry : headers.entrySet()) {
            write(out, entry.getKey());
            write(out, entry.getValue());
        }
    }

    /**
     * Appends to {@code out} the header map of {@code length} bytes of {@code buf} from absolute
     * {@code index} (one {@link #check} accepted) with {@code changes} made: every entry whose key
     * is a key of {@code changes} left out, then each change whose value is not null appended.
     * Entries kept are copied as they are.
     */
    static void rewrite(ByteBuf buf, int index, int length, Map<String, String> changes, ByteBuf out) {
        ByteBuf[] changed = new ByteBuf[changes.size()];
        int k = 0;
        for (String key : changes.keySet()) {
            changed[k++] = Unpooled.wrappedBuffer(key.getBytes(StandardCharsets.UTF_8));
        }
        int end = index + length;
        int at = index;
        while (at < end) {
            int keyLength = buf.getInt(at);
            int entryEnd = at + stringLength(buf, at);
            entryEnd += stringLength(buf, entryEnd);
            if (!isOneOf(buf, at + 4, keyLength, changed)) {
                out.writeBytes(buf, at, entryEnd - at);
            }
            at = entryEnd;
        }
        for (Map.Entry<String, String> change : changes.entrySet()) {
            if (change.getValue() != null) {
                write(out, change.getKey());
                write(out, change.getValue());
            }
        }
    }

    /** Whether the key of {@code length} bytes at {@code at} (-1: a null key) is one of {@code keys}, compared where it lies. */
    private static boolean isOneOf(ByteBuf buf, int at, int length, ByteBuf[] keys) {
        for (ByteBuf key : keys) {
            if (key.readableBytes() == length && ByteBufUtil.equals(buf, at, key, 0, length)) {
                return true;
            }
        }
        return false;
    }

    private static String readString(ByteBuf buf, int at, int end, BoltFrame frame) {
        checkedStringLength(buf, at, end, frame);
        int length = buf.getInt(at);
        return length == NULL_LENGTH ? null : buf.toString(at + 4, length, StandardCharsets.UTF_8);
    }

    /** The bytes taken by the string whose length field is at {@code at}, after checking they fit before {@code end}. */
    private static int checkedStringLength(ByteBuf buf, int at, int end, BoltFrame frame) {
        if (end - at < 4) {
            throw malformed(frame, "header map: " + (end - at) + " bytes left for a length (expected: >= 4)");
        }
        int length = buf.getInt(at);
        if (length < NULL_LENGTH || length > end - at - 4) {
            throw malformed(frame, "header map: string length " + length + " (expected: -1.." + (end - at - 4) + ")");
        }
        return 4 + Math.max(length, 0);
    }

    /** The bytes taken by the string whose length field is at {@code at}; valid after {@link #readString}. */
    private static int stringLength(ByteBuf buf, int at) {
        return 4 + Math.max(buf.getInt(at), 0);
    }

    private static BoltCodecException malformed(BoltFrame frame, String message) {
        return new BoltCodecException(message, frame.dialect(), (int) frame.requestId(), frame.kind().expectsResponse());
    }

    private static int encodedLength(String s) {
        return s == null ? 4 : 4 + ByteBufUtil.utf8Bytes(s);
    }

    private static void write(ByteBuf out, String s) {
        if (s == null) {
            out.writeInt(NULL_LENGTH);
            return;
        }
        out.writeInt(ByteBufUtil.utf8Bytes(s));
        ByteBufUtil.writeUtf8(out, s);
    }
}
