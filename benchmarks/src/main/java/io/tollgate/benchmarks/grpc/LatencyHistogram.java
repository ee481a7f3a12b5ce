package io.tollgate.benchmarks.grpc;

/**
 * Latencies counted in 1 us buckets up to 1 s (slower ones in the last bucket), so that the
 * load generator records a call with one array increment and reads percentiles at the end.
 * Not thread-safe: one event loop owns it.
 */
final class LatencyHistogram {

    private static final int MAX_MICROS = 1_000_000;

    private final long[] counts = new long[MAX_MICROS + 1];
    private long total;

    void record(long nanos) {
        counts[(int) Math.min(MAX_MICROS, Math.max(0, nanos / 1000))]++;
        total++;
    }

    long count() {
        return total;
    }

    /** The smallest latency in us that {@code fraction} of the recorded calls did not exceed; 0 when empty. */
    long percentileMicros(double fraction) {
        long rank = Math.max(1, (long) Math.ceil(total * fraction));
        long seen = 0;
        for (int micros = 0; micros < counts.length && total > 0; micros++) {
            seen += counts[micros];
            if (seen >= rank) {
                return micros;
            }
        }
        return 0;
    }
}
