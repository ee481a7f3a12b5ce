package io.tollgate.core.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * The meters of one route of one listener: an opaque handle the proxy resolves once per route
 * and passes to {@link ListenerMetrics#request(RouteMetrics, int, long)}.
 */
public final class RouteMetrics {

    private final StatusClassCounters requests;
    private final Timer time;

    RouteMetrics(MeterRegistry registry, Tags tags) {
        this.requests = new StatusClassCounters(registry, MetricNames.ROUTE_RQ, tags);
        this.time = Timer.builder(MetricNames.ROUTE_RQ_TIME)
                .tags(tags)
                .publishPercentileHistogram()
                .register(registry);
    }

    void request(int status, long elapsedNanos) {
        requests.count(status);
        time.record(elapsedNanos, TimeUnit.NANOSECONDS);
    }
}
