package io.tollgate.core.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Counters of one cluster read from a live source the router keeps (its {@link SubsetCounts}, its
 * {@link OriginalDstCounts}). A configuration reload builds a new cluster whose counts start at
 * zero: the old cluster's totals are carried over, so that the published counters never go back.
 * The counters hold this object weakly: its {@link ClusterMetrics} MUST keep it.
 *
 * @param <S> the kind of source
 */
final class CarriedCounters<S> {

    private final List<ToLongFunction<S>> readers;
    /** Guarded by {@code this}: the totals of the sources replaced so far, in the order of the readers. */
    private final long[] carried;
    private S source;

    /** Registers counter {@code names.get(i)} read by {@code readers.get(i)}, tagged {@code tags}. */
    CarriedCounters(MeterRegistry registry, Tags tags, List<String> names, List<ToLongFunction<S>> readers) {
        this.readers = List.copyOf(readers);
        this.carried = new long[readers.size()];
        for (int i = 0; i < names.size(); i++) {
            int counter = i;
            FunctionCounter.builder(names.get(i), this, meters -> meters.read(counter))
                    .tags(tags)
                    .register(registry);
        }
    }

    /** Makes {@code next} the source counted from now on, keeping what the previous one counted. */
    synchronized void source(S next) {
        if (source != null && source != next) {
            for (int i = 0; i < carried.length; i++) {
                carried[i] += readers.get(i).applyAsLong(source);
            }
        }
        source = next;
    }

    private synchronized double read(int counter) {
        return carried[counter] + (source == null ? 0 : readers.get(counter).applyAsLong(source));
    }
}
