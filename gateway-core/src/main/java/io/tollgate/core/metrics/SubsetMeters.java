package io.tollgate.core.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The subset load balancing counters of one cluster, read from the live cluster's
 * {@link SubsetCounts}. A configuration reload builds a new cluster whose counts start at zero:
 * the old cluster's totals are carried over, so that the published counters never go back. The
 * counters hold this object weakly: its {@link ClusterMetrics} MUST keep it.
 */
final class SubsetMeters {

    private static final List<String> NAMES = List.of(MetricNames.UPSTREAM_LB_SUBSET_EXACT,
            MetricNames.UPSTREAM_LB_SUBSET_KEYS_FALLBACK, MetricNames.UPSTREAM_LB_SUBSET_POLICY_FALLBACK,
            MetricNames.UPSTREAM_LB_SUBSET_NO_HOST);
    private static final List<ToLongFunction<SubsetCounts>> READERS = List.of(SubsetCounts::exactMatches,
            SubsetCounts::keysSubsetFallbacks, SubsetCounts::policyFallbacks, SubsetCounts::noHost);

    /** Guarded by {@code this}: the totals of the sources replaced so far, in the order of {@link #NAMES}. */
    private final long[] carried = new long[NAMES.size()];
    private SubsetCounts source;

    SubsetMeters(MeterRegistry registry, Tags tags) {
        for (int i = 0; i < NAMES.size(); i++) {
            int counter = i;
            FunctionCounter.builder(NAMES.get(i), this, meters -> meters.read(counter))
                    .tags(tags)
                    .register(registry);
        }
    }

    /** Makes {@code next} the source counted from now on, keeping what the previous one counted. */
    synchronized void source(SubsetCounts next) {
        if (source != null && source != next) {
            for (int i = 0; i < carried.length; i++) {
                carried[i] += READERS.get(i).applyAsLong(source);
            }
        }
        source = next;
    }

    private synchronized double read(int counter) {
        return carried[counter] + (source == null ? 0 : READERS.get(counter).applyAsLong(source));
    }
}
