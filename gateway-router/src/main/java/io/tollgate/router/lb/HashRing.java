package io.tollgate.router.lb;

import io.tollgate.router.host.Host;
import java.util.Arrays;

/**
 * A Ketama-style consistent hash ring over one {@link Candidates} instance: every host owns
 * points in proportion to its weight, and a hash belongs to the first point at or after it.
 *
 * <p>Each point is one {@code long}: the high bits are the point's hash, the low
 * {@code rankBits} bits the rank of its host, so the ring is a single sorted array and a lookup
 * a binary search that allocates nothing. A host's points depend only on its id and its number
 * of points; that number is its weight times a power-of-two scale chosen so that the ring has at
 * least {@code minimumRingSize} points. The scale only changes when the total weight crosses a
 * power of two, so removing one host of N usually moves only that host's keys (about 1/N).
 *
 * <p>A lookup first reads where the points of the hash's top bits begin (about
 * {@value #POINTS_PER_BUCKET} points a bucket), so its binary search covers a few neighbouring
 * points rather than the whole ring: a large ring costs one or two cache misses, not one per
 * halving.
 */
final class HashRing {

    /** How far a lookup walks past points of unavailable hosts before it takes the hashed point's. */
    private static final int MAX_WALK = 64;
    /** The points a bucket of the lookup index covers on average. */
    private static final int POINTS_PER_BUCKET = 4;

    private final long[] points;
    private final long rankMask;
    /** {@code 64 - log2(buckets)}: a hash's bucket is its top bits. */
    private final int bucketShift;
    /** By bucket: the index of its first point, or of the next bucket's; one entry more than buckets. */
    private final int[] firstPoint;

    private HashRing(long[] points, long rankMask) {
        this.points = points;
        this.rankMask = rankMask;
        int bucketBits = Math.max(1, 31 - Integer.numberOfLeadingZeros(Math.max(1, points.length / POINTS_PER_BUCKET)));
        this.bucketShift = 64 - bucketBits;
        this.firstPoint = new int[(1 << bucketBits) + 1];
        int at = 0;
        for (int bucket = 0; bucket < firstPoint.length - 1; bucket++) {
            while (at < points.length && bucketOf(points[at]) < bucket) {
                at++;
            }
            firstPoint[bucket] = at;
        }
        firstPoint[firstPoint.length - 1] = points.length;
    }

    /** The bucket of {@code value} in the ring's signed order: its top bits with the sign bit flipped. */
    private int bucketOf(long value) {
        return (int) ((value ^ Long.MIN_VALUE) >>> bucketShift);
    }

    static HashRing build(Candidates candidates, int minimumRingSize, int maximumRingSize) {
        int size = candidates.size();
        int rankBits = 32 - Integer.numberOfLeadingZeros(Math.max(1, size - 1));
        long rankMask = (1L << rankBits) - 1;
        boolean uniform = candidates.uniformWeights();
        long totalWeight = uniform ? size : candidates.totalWeight();
        long[] pointsByRank = new long[size];
        long total = 0;
        for (int rank = 0; rank < size; rank++) {
            long weight = uniform ? 1 : candidates.host(rank).weight();
            pointsByRank[rank] = pointsOf(weight, totalWeight, minimumRingSize, maximumRingSize);
            total += pointsByRank[rank];
        }
        long[] points = new long[Math.toIntExact(total)];
        int at = 0;
        for (int rank = 0; rank < size; rank++) {
            long base = Hashing.chars(candidates.host(rank).id());
            for (long p = 0; p < pointsByRank[rank]; p++) {
                points[at++] = (Hashing.mix(base + p) & ~rankMask) | rank;
            }
        }
        Arrays.sort(points);
        return new HashRing(points, rankMask);
    }

    /** A host's number of points: its weight times the power-of-two scale, at least 1, the ring capped at the maximum. */
    private static long pointsOf(long weight, long totalWeight, int minimumRingSize, int maximumRingSize) {
        if (totalWeight > maximumRingSize) {
            return Math.max(1, weight * maximumRingSize / totalWeight);
        }
        long scale = 1;
        while (totalWeight * scale < minimumRingSize && totalWeight * scale * 2 <= maximumRingSize) {
            scale *= 2;
        }
        return weight * scale;
    }

    /** The number of points on the ring. */
    int size() {
        return points.length;
    }

    /**
     * The host owning {@code hash}: the host of the first point at or after it, or of the first
     * point after that whose host is available (walking at most {@value #MAX_WALK} points, as in
     * panic mode every host may be down); the hashed point's host when none is.
     */
    Host host(Candidates candidates, long hash) {
        long key = hash & ~rankMask;
        int bucket = bucketOf(key);
        int found = Arrays.binarySearch(points, firstPoint[bucket], firstPoint[bucket + 1], key);
        int first = found >= 0 ? found : -found - 1;
        if (first == points.length) {
            first = 0;
        }
        int walk = Math.min(MAX_WALK, points.length);
        for (int step = 0, at = first; step < walk; step++, at = at + 1 == points.length ? 0 : at + 1) {
            int rank = (int) (points[at] & rankMask);
            if (candidates.available(rank)) {
                return candidates.host(rank);
            }
        }
        return candidates.host((int) (points[first] & rankMask));
    }
}
