package io.tollgate.filters.localratelimit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One token bucket per descriptor value (a client address, a header's value), at most
 * {@code maxDescriptors} of them. A bucket that refilled completely holds nothing a new one would
 * not, so when the map is full the buckets that are full again are dropped (at most once per fill
 * interval, by one thread) to make room; values that still find no room share one overflow bucket
 * until room is made. Lock-free: the map is a {@link ConcurrentHashMap}, read without locking on
 * the hot path. A value longer than {@value #MAX_KEY_CHARS} characters is kept as its SHA-256
 * digest, so that the map's memory stays about {@code maxDescriptors} times 200 bytes whatever
 * clients send (a header can be kilobytes). Two races are allowed for it, each worth at most one token or one bucket per
 * event loop: a request that took its bucket just before a sweep dropped it takes from the
 * dropped bucket, and new values arriving at once may pass the bound by one each.
 */
final class DescriptorBuckets {

    /** The longest value kept as it is. */
    static final int MAX_KEY_CHARS = 64;

    private final ConcurrentHashMap<String, TokenBucket> buckets = new ConcurrentHashMap<>();
    private final BucketShape shape;
    private final int maxDescriptors;
    private final TokenBucket overflow;
    private final AtomicLong nextSweep;

    DescriptorBuckets(BucketShape shape, int maxDescriptors) {
        this.shape = shape;
        this.maxDescriptors = maxDescriptors;
        this.overflow = new TokenBucket(shape, shape.now());
        this.nextSweep = new AtomicLong(shape.now());
    }

    /** The bucket of {@code value}: its own, a new one, or the overflow bucket when there is no room. */
    TokenBucket bucket(String value) {
        String key = value.length() <= MAX_KEY_CHARS ? value : digest(value);
        TokenBucket bucket = buckets.get(key);
        if (bucket != null) {
            return bucket;
        }
        long now = shape.now();
        if (buckets.size() >= maxDescriptors && !sweep(now)) {
            return overflow;
        }
        return buckets.computeIfAbsent(key, v -> new TokenBucket(shape, now));
    }

    private static String digest(String value) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().withoutPadding().encodeToString(sha);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Drops the buckets that are full at {@code now}, if no other thread did within the last fill interval; true when there is room. */
    private boolean sweep(long now) {
        long due = nextSweep.get();
        if (now - due < 0 || !nextSweep.compareAndSet(due, now + shape.fillIntervalNanos())) {
            return false;
        }
        buckets.values().removeIf(b -> b.full(now));
        return buckets.size() < maxDescriptors;
    }

    /** The descriptor values that have a bucket of their own now. */
    int size() {
        return buckets.size();
    }
}
