package io.tollgate.filters.mirror;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.MirrorListener;
import io.tollgate.core.filter.MirrorOutcome;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.core.metrics.MetricNames;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Traffic mirroring: a share of the requests is copied to a shadow cluster, fire and forget, by
 * the engine's {@link StreamFilterContext#mirror}; the request itself goes on at once and never
 * waits for its copy. Each copy's end is counted as {@code tollgate.filter.mirror.sent},
 * {@code .failed} or {@code .skipped}, tagged by listener and shadow cluster.
 */
final class MirrorFilter implements StreamFilter {

    static final String SENT = "tollgate.filter.mirror.sent";
    static final String FAILED = "tollgate.filter.mirror.failed";
    static final String SKIPPED = "tollgate.filter.mirror.skipped";

    private final MirrorSettings settings;
    /** Null without a seed: then each event loop draws from its own generator. */
    private final Random seeded;
    private final MirrorListener counting;

    MirrorFilter(MirrorSettings settings, FilterScope scope) {
        this.settings = settings;
        this.seeded = settings.seed() == null ? null : new Random(settings.seed());
        Tags tags = Tags.of(MetricNames.TAG_LISTENER, scope.listener(), MetricNames.TAG_CLUSTER, settings.cluster());
        Counter sent = scope.meters().counter(SENT, tags);
        Counter failed = scope.meters().counter(FAILED, tags);
        Counter skipped = scope.meters().counter(SKIPPED, tags);
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
