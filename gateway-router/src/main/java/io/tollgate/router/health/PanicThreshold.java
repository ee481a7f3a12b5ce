package io.tollgate.router.health;

/**
 * Envoy's panic mode: when too few hosts of a cluster are available, health is ignored and
 * requests go to every host, since crushing the few survivors under the whole load is worse
 * than sending some requests to hosts that may be down.
 */
public final class PanicThreshold {

    private PanicThreshold() {
    }

    /**
     * Whether {@code available} hosts out of {@code total} are below {@code percent} percent;
     * a threshold of 0 never panics.
     */
    public static boolean panics(int available, int total, int percent) {
        if (available < 0 || total < available) {
            throw new IllegalArgumentException("hosts: " + available + " of " + total + " (expected: 0 <= available <= total)");
        }
        return (long) available * 100 < (long) percent * total;
    }
}
