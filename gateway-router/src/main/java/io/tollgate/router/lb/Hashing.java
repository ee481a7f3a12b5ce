package io.tollgate.router.lb;

import net.openhft.hashing.LongHashFunction;

/**
 * The one hash function of the hash load balancers (xxh3, 64 bits), applied to a String's chars
 * in place so that hashing a request allocates nothing.
 */
final class Hashing {

    private static final LongHashFunction XX3 = LongHashFunction.xx3();

    private Hashing() {
    }

    static long chars(String text) {
        return XX3.hashChars(text);
    }

    static long chars(String text, int from, int to) {
        return XX3.hashChars(text, from, to - from);
    }

    /** A well-mixed hash of a number, e.g. of a host's hash plus the index of one of its points. */
    static long mix(long value) {
        return XX3.hashLong(value);
    }

    /** Folds {@code next} into {@code sofar} so that the order of the parts counts (Envoy's combination). */
    static long combine(long sofar, long next) {
        return Long.rotateLeft(sofar, 1) ^ next;
    }
}
