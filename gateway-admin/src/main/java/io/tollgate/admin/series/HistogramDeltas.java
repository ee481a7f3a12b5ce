package io.tollgate.admin.series;

import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The observations a set of timers made since the previous round, as histograms, so that a
 * quantile of the last second can be read from buckets the Prometheus registry keeps since the
 * start. Timers under one key (every cluster's for the whole gateway) are summed bucket by bucket.
 * Needs the timers' cumulative bucket counts, as a Prometheus registry keeps them.
 */
final class HistogramDeltas {

    private Map<String, Buckets> previous;
    private Map<String, Buckets> current = new HashMap<>();

    /** Adds a timer's buckets (counts since the start) to {@code key}'s of this round. */
    void add(String key, HistogramSnapshot snapshot) {
        current.computeIfAbsent(key, k -> new Buckets()).add(snapshot);
    }

    /**
     * Ends a round: each key's observations since the previous round (all of a key new since then;
     * none in the first round, when nothing is known).
     */
    Map<String, Buckets> endRound() {
        Map<String, Buckets> grown = new HashMap<>();
        for (Map.Entry<String, Buckets> e : current.entrySet()) {
            Buckets before = previous == null ? e.getValue() : previous.getOrDefault(e.getKey(), new Buckets());
            grown.put(e.getKey(), e.getValue().minus(before));
        }
        previous = current;
        current = new HashMap<>();
        return grown;
    }

    /** Observations by upper bound in nanoseconds: at each bound, how many were at most that long. */
    static final class Buckets {

        private final TreeMap<Double, Double> atMost = new TreeMap<>();
        private double count;

        void add(HistogramSnapshot snapshot) {
            count += snapshot.count();
            for (CountAtBucket bucket : snapshot.histogramCounts()) {
                atMost.merge(bucket.bucket(TimeUnit.NANOSECONDS), bucket.count(), Double::sum);
            }
        }

        /** These observations less {@code earlier}'s; a total that went back counts from zero. */
        Buckets minus(Buckets earlier) {
            Buckets grown = new Buckets();
            boolean reset = count < earlier.count;
            grown.count = reset ? count : count - earlier.count;
            for (Map.Entry<Double, Double> e : atMost.entrySet()) {
                double before = reset ? 0 : earlier.atMost.getOrDefault(e.getKey(), 0.0);
                grown.atMost.put(e.getKey(), Math.max(0, e.getValue() - before));
            }
            return grown;
        }

        /** How many observations. */
        double count() {
            return count;
        }

        /**
         * The {@code q} quantile in milliseconds, interpolated linearly inside its bucket; NaN
         * without observations; the largest bound when it lies past every bucket.
         */
        double quantileMillis(double q) {
            if (count <= 0) {
                return Double.NaN;
            }
            double target = q * count;
            double lowerBound = 0;
            double lowerCount = 0;
            for (Map.Entry<Double, Double> e : atMost.entrySet()) {
                double bound = e.getKey();
                double atMostBound = e.getValue();
                if (atMostBound >= target && atMostBound > lowerCount) {
                    double within = (target - lowerCount) / (atMostBound - lowerCount);
                    return (lowerBound + (bound - lowerBound) * within) / 1_000_000;
                }
                lowerBound = bound;
                lowerCount = atMostBound;
            }
            return lowerBound / 1_000_000;
        }
    }
}
