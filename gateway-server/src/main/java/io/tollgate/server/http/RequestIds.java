package io.tollgate.server.http;

import java.util.concurrent.ThreadLocalRandom;

/** Generates {@code x-request-id} values: 128 random bits as 32 lower-case hex digits. */
final class RequestIds {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private RequestIds() {
    }

    static String next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] id = new char[32];
        fill(id, 0, random.nextLong());
        fill(id, 16, random.nextLong());
        return new String(id);
    }

    private static void fill(char[] out, int offset, long bits) {
        for (int i = 15; i >= 0; i--) {
            out[offset + i] = HEX[(int) (bits & 0xf)];
            bits >>>= 4;
        }
    }
}
