package io.tollgate.filters.trace;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Trace and span ids as lower-case hex, made from {@link ThreadLocalRandom} (no lock, no system
 * call), never all zeros, which W3C and B3 both reserve for "no id".
 */
final class TraceIds {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private TraceIds() {
    }

    /** A new 128-bit trace id, 32 hex digits. */
    static String newTraceId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] out = new char[32];
        hex(nonZero(random), out, 0);
        hex(random.nextLong(), out, 16);
        return new String(out);
    }

    /** A new 64-bit span id, 16 hex digits. */
    static String newSpanId() {
        char[] out = new char[16];
        hex(nonZero(ThreadLocalRandom.current()), out, 0);
        return new String(out);
    }

    /** Whether {@code value} is {@code length} lower-case hex digits, not all zeros. */
    static boolean isId(String value, int length) {
        if (value == null || value.length() != length) {
            return false;
        }
        boolean nonZero = false;
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
            nonZero |= c != '0';
        }
        return nonZero;
    }

    private static long nonZero(ThreadLocalRandom random) {
        long value;
        do {
            value = random.nextLong();
        } while (value == 0);
        return value;
    }

    private static void hex(long value, char[] out, int at) {
        for (int i = 15; i >= 0; i--) {
            out[at + i] = HEX[(int) (value & 0xf)];
            value >>>= 4;
        }
    }
}
