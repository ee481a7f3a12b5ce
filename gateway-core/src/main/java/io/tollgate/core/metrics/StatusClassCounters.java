package io.tollgate.core.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Five counters of one meter, one per status class, resolved once so that counting a response
 * is an array index and an increment.
 */
final class StatusClassCounters {

    private static final String[] CLASSES = {"1xx", "2xx", "3xx", "4xx", "5xx"};

    private final Counter[] counters = new Counter[CLASSES.length];

    StatusClassCounters(MeterRegistry registry, String name, Tags tags) {
        for (int i = 0; i < CLASSES.length; i++) {
            counters[i] = registry.counter(name, tags.and(MetricNames.TAG_STATUS_CLASS, CLASSES[i]));
        }
    }

    /** Counts one response; a status outside 100..599 counts as {@code 5xx}. */
    void count(int status) {
        counters[index(status)].increment();
    }

    private static int index(int status) {
        int index = status / 100 - 1;
        return index >= 0 && index < CLASSES.length ? index : CLASSES.length - 1;
    }
}
