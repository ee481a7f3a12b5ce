package io.tollgate.router.lb;

import io.tollgate.router.cluster.Host;
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
 */
final class HashRing {

    /** How far a lookup walks past points of unavailable hosts before it takes the hashed point's. */
    private static final int MAX_WALK = 64;

    private final long[] points;
    private final long rankMask;

    private HashRing(long[] points, long rankMask) {
        this.points = points;
        this.rankMask = rankMask;
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
        int found = Arrays.binarySearch(points, hash & ~rankMask);
        int first = found >= 0 ? found : -found - 1;
        if (first == points.length) {
            first = 0;
        }
        int walk = Math.min(MAX_WALK, points.length);
        for (int step = 0, at = first; step < walk; step++, at = at + 1 == points.length ? 0 : at + 1) {
            Host host = candidates.host((int) (points[at] & rankMask));
            if (host.available()) {
                return host;
            }
        }
        return candidates.host((int) (points[first] & rankMask));
    }
}
