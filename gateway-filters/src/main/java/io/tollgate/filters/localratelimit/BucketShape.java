package io.tollgate.filters.localratelimit;

import java.util.function.LongSupplier;

/**
 * The size and refill of a filter's token buckets, with the clock they read and the instant
 * their fills count from: every {@code fillIntervalNanos} after {@code origin}, each bucket gains
 * {@code tokensPerFill} tokens, up to {@code maxTokens}. Fills are instants shared by every bucket
 * of the filter, as Envoy's fill timer is, but computed from the clock when a bucket is used
 * rather than by a timer.
 *
 * @param maxTokens the most tokens a bucket holds, and what a new bucket starts with
 * @param tokensPerFill the tokens each fill adds
 * @param fillIntervalNanos the time between two fills
 * @param origin the clock's reading fills count from
 * @param clock nanoseconds, monotonic: {@link System#nanoTime()} but in tests
 */
record BucketShape(long maxTokens, long tokensPerFill, long fillIntervalNanos, long origin, LongSupplier clock) {

    /** The largest {@code max_tokens} and {@code tokens_per_fill}: fills times tokens then fit a long for over 14 years of 50 ms fills. */
    static final long MAX_TOKENS = 1_000_000_000L;

    /** The clock's reading now. */
    long now() {
        return clock.getAsLong();
    }

    /** The nanoseconds from {@code now} to the next fill. */
    long untilNextFill(long now) {
        return fillIntervalNanos - (now - origin) % fillIntervalNanos;
    }

    /** The tokens all fills from {@link #origin} to {@code now} added, uncapped. */
    long filled(long now) {
        return (now - origin) / fillIntervalNanos * tokensPerFill;
    }
}
