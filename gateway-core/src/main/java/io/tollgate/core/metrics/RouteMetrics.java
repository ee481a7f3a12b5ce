package io.tollgate.core.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The meters of one route of one listener: an opaque handle the proxy resolves once per route
 * and passes to {@link ListenerMetrics#request(RouteMetrics, int)}.
 */
public final class RouteMetrics {

    private final StatusClassCounters requests;

    RouteMetrics(MeterRegistry registry, Tags tags) {
        this.requests = new StatusClassCounters(registry, MetricNames.ROUTE_RQ, tags);
    }

    void request(int status) {
        requests.count(status);
    }
}
