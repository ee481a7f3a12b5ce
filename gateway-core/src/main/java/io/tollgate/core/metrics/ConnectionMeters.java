package io.tollgate.core.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.atomic.AtomicLong;

/** A gauge of open connections and a counter of opened ones, the pair every side of a proxy keeps. */
final class ConnectionMeters {

    private final AtomicLong active = new AtomicLong();
    private final Counter total;

    ConnectionMeters(MeterRegistry registry, String activeName, String totalName, Tags tags) {
        Gauge.builder(activeName, active, AtomicLong::get).tags(tags).strongReference(true).register(registry);
        this.total = registry.counter(totalName, tags);
    }

    void opened() {
        active.incrementAndGet();
        total.increment();
    }

    void closed() {
        active.decrementAndGet();
    }
}
