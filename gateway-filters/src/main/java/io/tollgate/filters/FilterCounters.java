package io.tollgate.filters;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.metrics.MetricNames;

/**
 * Makes a built-in filter's counters, tagged by the listener and the route of the chain the filter
 * serves, so that a route's override counts apart from its listener's chain. Every counter of a
 * name carries both tags (the listener's own chain has the empty route), as Prometheus wants one
 * set of tag keys per name.
 */
public final class FilterCounters {

    /** The route tag of a filter in a listener's own chain, which serves every route without an override. */
    public static final String LISTENER_CHAIN = "";

    private FilterCounters() {
    }

    /** The counter {@code name} of the chain {@code scope} describes; the same instance for the same chain. */
    public static Counter counter(FilterScope scope, String name) {
        return scope.meters().counter(name, Tags.of(MetricNames.TAG_LISTENER, scope.listener(),
                MetricNames.TAG_ROUTE, scope.route() == null ? LISTENER_CHAIN : scope.route()));
    }
}
