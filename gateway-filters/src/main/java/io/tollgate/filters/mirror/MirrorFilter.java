package io.tollgate.filters.mirror;

import io.micrometer.core.instrument.Counter;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.MirrorListener;
import io.tollgate.core.filter.MirrorOutcome;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.filters.FilterCounters;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Traffic mirroring: a share of the requests is copied to a shadow cluster, fire and forget, by
 * the engine's {@link StreamFilterContext#mirror}; the request itself goes on at once and never
 * waits for its copy. Each copy's end is counted as {@code tollgate.filter.mirror.sent},
 * {@code .failed} or {@code .skipped}, tagged by listener, route and shadow cluster.
 */
final class MirrorFilter implements StreamFilter {

    private final MirrorSettings settings;
    /** Null without a seed: then each event loop draws from its own generator. */
    private final Random seeded;
    private final MirrorListener counting;

    MirrorFilter(MirrorSettings settings, FilterScope scope) {
        this.settings = settings;
        this.seeded = settings.seed() == null ? null : new Random(settings.seed());
        Counter sent = FilterCounters.counter(scope, MetricNames.FILTER_MIRROR_SENT, MetricNames.TAG_CLUSTER,
                settings.cluster());
        Counter failed = FilterCounters.counter(scope, MetricNames.FILTER_MIRROR_FAILED, MetricNames.TAG_CLUSTER,
                settings.cluster());
        Counter skipped = FilterCounters.counter(scope, MetricNames.FILTER_MIRROR_SKIPPED, MetricNames.TAG_CLUSTER,
                settings.cluster());
        this.counting = outcome -> {
            if (outcome == MirrorOutcome.SENT) {
                sent.increment();
            } else if (outcome == MirrorOutcome.FAILED) {
                failed.increment();
            } else {
                skipped.increment();
            }
        };
    }

    @Override
    public FilterStatus onRequest(StreamFilterContext context) {
        if (chosen()) {
            context.mirror(settings.cluster(), settings.maxBodyBytes(), counting);
        }
        return FilterStatus.CONTINUE;
    }

    private boolean chosen() {
        int parts = settings.partsPerMillion();
        if (parts >= MirrorSettings.ALL) {
            return true;
        }
        if (parts <= 0) {
            return false;
        }
        int draw = seeded == null ? ThreadLocalRandom.current().nextInt(MirrorSettings.ALL)
                : seeded.nextInt(MirrorSettings.ALL);
        return draw < parts;
    }
}
