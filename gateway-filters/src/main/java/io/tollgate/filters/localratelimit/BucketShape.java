package io.tollgate.filters.localratelimit;

/**
 * The size and refill of a filter's token buckets, with the instant its fills count from: every
 * {@code fillIntervalNanos} after {@code origin}, each bucket gains {@code tokensPerFill} tokens,
 * up to {@code maxTokens}. Fills are instants shared by every bucket of the filter, as Envoy's
 * fill timer is, but computed from the clock when a bucket is used rather than by a timer.
 *
 * @param maxTokens the most tokens a bucket holds, and what a new bucket starts with
 * @param tokensPerFill the tokens each fill adds
 * @param fillIntervalNanos the time between two fills
 * @param origin the {@link System#nanoTime()} fills count from
 */
record BucketShape(long maxTokens, long tokensPerFill, long fillIntervalNanos, long origin) {

    /** The largest {@code max_tokens} and {@code tokens_per_fill}: fills times tokens then fit a long for over 14 years of 50 ms fills. */
    static final long MAX_TOKENS = 1_000_000_000L;

    /** The fills that happened from {@link #origin} to {@code now}. */
    long fills(long now) {
        return (now - origin) / fillIntervalNanos;
    }
}
