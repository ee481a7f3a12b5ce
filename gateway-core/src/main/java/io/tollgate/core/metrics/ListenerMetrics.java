package io.tollgate.core.metrics;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The downstream meters of one listener. Thread-safe: every event loop of the listener counts
 * into the same instance.
 */
public final class ListenerMetrics {

    private final MeterRegistry registry;
    private final Tags tags;
    private final ConnectionMeters connections;
    private final StatusClassCounters requests;
    private final ConcurrentMap<String, RouteMetrics> routes = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> errors = new ConcurrentHashMap<>();

    ListenerMetrics(MeterRegistry registry, String listenerName) {
        this.registry = registry;
        this.tags = Tags.of(MetricNames.TAG_LISTENER, listenerName);
        this.connections = new ConnectionMeters(
                registry, MetricNames.DOWNSTREAM_CX_ACTIVE, MetricNames.DOWNSTREAM_CX_TOTAL, tags);
        this.requests = new StatusClassCounters(registry, MetricNames.DOWNSTREAM_RQ, tags);
    }

    /** Counts an accepted connection; MUST be paired with exactly one {@link #connectionClosed()}. */
    public void connectionOpened() {
        connections.opened();
    }

    public void connectionClosed() {
        connections.closed();
    }

    /** Returns the meters of a route of this listener, the same instance for the same name. */
    public RouteMetrics route(String routeName) {
        requireNonNull(routeName, "routeName");
        RouteMetrics route = routes.get(routeName);
        if (route != null) {
            return route;
        }
        return routes.computeIfAbsent(routeName,
                name -> new RouteMetrics(registry, tags.and(MetricNames.TAG_ROUTE, name)));
    }

    /**
     * Counts an answered request by its status class, on the listener and, when the request
     * matched one, on its route.
     *
     * @param routeOrNull the matched route's handle, or null when no route matched
     */
    public void request(RouteMetrics routeOrNull, int status) {
        requests.count(status);
        if (routeOrNull != null) {
            routeOrNull.request(status);
        }
    }

    /**
     * Counts a failed downstream request by reason, e.g. {@code bad_request},
     * {@code header_too_large}, {@code body_too_large}, {@code no_route}, {@code smuggling}.
     * Reasons MUST come from a small fixed set: each one is a time series.
     */
    public void error(String reason) {
        requireNonNull(reason, "reason");
        Counter counter = errors.get(reason);
        if (counter == null) {
            counter = errors.computeIfAbsent(reason, r ->
                    registry.counter(MetricNames.DOWNSTREAM_RQ_ERROR, tags.and(MetricNames.TAG_REASON, r)));
        }
        counter.increment();
    }
}
