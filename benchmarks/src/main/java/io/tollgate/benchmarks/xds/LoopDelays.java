package io.tollgate.benchmarks.xds;

import java.util.Map;
import java.util.TreeMap;

/**
 * A reading of the gateway's event-loop delay probe ({@code tollgate.event_loop.delay}), summed
 * over its loops: how many probes ran, how many of them ran at most each bucket's bound late, and
 * the largest delay since the start. The difference of two readings ({@link #since}) describes
 * what happened between them: the buckets exactly, the largest delay exactly when it rose
 * meanwhile, else within the bounds of its bucket.
 */
public record LoopDelays(long probes, Map<Double, Double> atOrBelowMillis, double peakMillis, double peakBeforeMillis) {

    public static LoopDelays read(Scrape scrape) {
        Map<Double, Double> buckets = new TreeMap<>();
        for (Scrape.Sample sample : scrape.samples()) {
            String le = sample.labels().get("le");
            if (sample.name().equals("tollgate_event_loop_delay_seconds_bucket") && !le.equals("+Inf")) {
                buckets.merge(Math.round(Double.parseDouble(le) * 1e6) / 1e3, sample.value(), Double::sum);
            }
        }
        long probes = Math.round(scrape.sum("tollgate_event_loop_delay_seconds_count", labels -> true));
        return new LoopDelays(probes, buckets, scrape.max("tollgate_event_loop_delay_peak_seconds") * 1e3, 0);
    }

    /** What happened since {@code before}. */
    public LoopDelays since(LoopDelays before) {
        Map<Double, Double> buckets = new TreeMap<>();
        atOrBelowMillis.forEach((bound, count) -> buckets.put(bound, count - before.atOrBelowMillis.getOrDefault(bound, 0.0)));
        return new LoopDelays(probes - before.probes, buckets, peakMillis, before.peakMillis);
    }

    private long laterThan(double millis) {
        return Math.round(probes - atOrBelowMillis.getOrDefault(millis, 0.0));
    }

    /** The largest delay: exact when the peak rose between the readings, else the bounds of its bucket. */
    private String largest() {
        if (peakMillis > peakBeforeMillis) {
            return String.format("%.1f ms", peakMillis);
        }
        double lower = 0;
        for (Map.Entry<Double, Double> bucket : atOrBelowMillis.entrySet()) {
            if (bucket.getValue() >= probes) {
                return String.format("in (%.1f, %.1f] ms", lower, Math.min(bucket.getKey(), peakBeforeMillis));
            }
            lower = bucket.getKey();
        }
        return String.format("in (%.1f, %.1f] ms", lower, peakBeforeMillis);
    }

    @Override
    public String toString() {
        return String.format("probes %d, later than 1 ms %d, 5 ms %d, 10 ms %d, 50 ms %d; largest delay %s", probes,
                laterThan(1), laterThan(5), laterThan(10), laterThan(50), largest());
    }
}
