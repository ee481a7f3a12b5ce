package io.tollgate.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tollgate.core.metrics.MetricNames;
import java.util.concurrent.atomic.AtomicLong;

/** The meters of configuration reloads: how many were applied and rejected, and the version served. */
final class ReloadMeters {

    private final Counter applied;
    private final Counter rejected;
    private final AtomicLong version = new AtomicLong();

    ReloadMeters(MeterRegistry registry) {
        this.applied = Counter.builder(MetricNames.CONFIG_RELOAD).tag(MetricNames.TAG_RESULT, "success").register(registry);
        this.rejected = Counter.builder(MetricNames.CONFIG_RELOAD).tag(MetricNames.TAG_RESULT, "failure").register(registry);
        registry.gauge(MetricNames.CONFIG_VERSION, version);
    }

    void version(long served) {
        version.set(served);
    }

    void applied(long served) {
        applied.increment();
        version.set(served);
    }

    void failed() {
        rejected.increment();
    }
}
