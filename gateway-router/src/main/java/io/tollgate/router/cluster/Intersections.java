package io.tollgate.router.cluster;

import java.util.IdentityHashMap;
import java.util.Map;
import org.roaringbitmap.RoaringBitmap;

/**
 * ANDs immutable bitmaps for one index build or update, sharing results: an AND already
 * computed from the same two bitmaps is reused, and a label covering every host of the other
 * side leaves that side as it is. Selectors that share keys (MOSN's 15 combinations of 4 keys)
 * then compute (and unpack) each distinct subset once. Every bitmap given or returned MUST NOT be modified.
 */
final class Intersections {

    private final Map<RoaringBitmap, Map<RoaringBitmap, RoaringBitmap>> results = new IdentityHashMap<>();
    private final Map<RoaringBitmap, HostCandidates> candidates = new IdentityHashMap<>();

    /** {@link HostCandidates#of}, once per distinct result: subsets with equal hosts share it. */
    HostCandidates candidates(HostSet hosts, RoaringBitmap members) {
        if (members.isEmpty()) {
            return null;
        }
        if (members == hosts.healthyIndices()) {
            return hosts.healthyCandidates();
        }
        return candidates.computeIfAbsent(members, m -> HostCandidates.of(hosts.slots(), hosts.loads(), m,
                hosts.uniformWeights()));
    }

    RoaringBitmap and(RoaringBitmap a, RoaringBitmap b) {
        Map<RoaringBitmap, RoaringBitmap> withA = results.computeIfAbsent(a, x -> new IdentityHashMap<>());
        RoaringBitmap result = withA.get(b);
        if (result == null) {
            int cardinality = a.getCardinality();
            result = RoaringBitmap.andCardinality(a, b) == cardinality ? a : RoaringBitmap.and(a, b);
            withA.put(b, result);
        }
        return result;
    }

    /** {@code base} AND the bitmaps of the labels {@code keys[i]} = {@code values[i]}. */
    RoaringBitmap and(RoaringBitmap base, Map<String, RoaringBitmap>[] labels, int[] keys, String[] values) {
        RoaringBitmap result = base;
        for (int i = 0; i < keys.length; i++) {
            RoaringBitmap label = labels[keys[i]].get(values[i]);
            if (label == null) {
                return new RoaringBitmap();
            }
            result = and(result, label);
        }
        return result;
    }
}
