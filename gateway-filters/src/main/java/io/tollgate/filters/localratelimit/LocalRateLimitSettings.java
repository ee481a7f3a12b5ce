package io.tollgate.filters.localratelimit;

import java.time.Duration;

/**
 * What a {@code local_rate_limit} entry configures: the buckets' size and refill, as Envoy's
 * token bucket, and what the buckets are kept per.
 *
 * @param maxTokens the most tokens a bucket holds, and what it starts with
 * @param tokensPerFill the tokens each fill adds
 * @param fillInterval the time between fills
 * @param descriptor what requests are told apart by, one bucket per value; null for one bucket
 * @param maxDescriptors the most descriptor values with a bucket of their own
 */
record LocalRateLimitSettings(long maxTokens, long tokensPerFill, Duration fillInterval, Descriptor descriptor,
        int maxDescriptors) {

    /** The default of {@code max_descriptors}. */
    static final int DEFAULT_MAX_DESCRIPTORS = 10_000;

    /**
     * What a request's bucket is chosen by: its client's address, or the first value of a request
     * header (absent: the empty value, so requests without it share one bucket).
     *
     * @param header the header's name in lower case, or null for the client's address
     */
    record Descriptor(String header) {

        /** The client's address. */
        static final Descriptor CLIENT_IP = new Descriptor(null);
    }
}
