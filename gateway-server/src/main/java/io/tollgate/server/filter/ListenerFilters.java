package io.tollgate.server.filter;

import io.micrometer.core.instrument.MeterRegistry;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.config.VirtualHostConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterFactory;
import io.tollgate.filters.headers.HeadersFilterFactory;
import io.tollgate.router.route.Route;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The stream filter chains of one listener, compiled from one configuration: the listener's own,
 * and one for each route that overrides or disables some of its filters or changes headers of its
 * own ({@code request_headers}, {@code response_headers}: the {@code headers} filter's per-route
 * form). Finding a request's chain is a field read on a listener none of whose routes has its own
 * chain, else one identity-map lookup.
 */
public final class ListenerFilters {

    /** A listener without filters. */
    public static final ListenerFilters NONE = new ListenerFilters(StreamFilterChain.EMPTY, Map.of());

    private final StreamFilterChain chain;
    private final Map<RouteEntryConfig, StreamFilterChain> routeChains;

    private ListenerFilters(StreamFilterChain chain, Map<RouteEntryConfig, StreamFilterChain> routeChains) {
        this.chain = chain;
        this.routeChains = routeChains;
    }

    /**
     * Makes the filters of {@code listener} with the factories of {@code extensions}, their meters
     * in {@code meters}. Runs when a configuration is compiled, on the control thread.
     */
    public static ListenerFilters build(ListenerConfig listener, ExtensionRegistry extensions, MeterRegistry meters) {
        List<StreamFilter> filters = new ArrayList<>();
        for (StreamFilterConfig config : listener.filters()) {
            filters.add(config.disabled() ? null
                    : factory(extensions, config).create(config, new FilterScope(listener.name(), null, meters)));
        }
        Map<RouteEntryConfig, StreamFilterChain> routeChains = new IdentityHashMap<>();
        for (VirtualHostConfig host : listener.routeConfig().virtualHosts()) {
            for (RouteEntryConfig route : host.routes()) {
                if (!route.filters().isEmpty() || changesHeaders(route)) {
                    routeChains.put(route, routeChain(listener, route, filters, extensions, meters));
                }
            }
        }
        List<StreamFilter> enabled = filters.stream().filter(Objects::nonNull).toList();
        if (enabled.isEmpty() && routeChains.isEmpty()) {
            return NONE;
        }
        return new ListenerFilters(StreamFilterChain.of(enabled), routeChains);
    }

    /** Whether the route has {@code request_headers} or {@code response_headers} of its own. */
    private static boolean changesHeaders(RouteEntryConfig route) {
        return !route.requestHeaders().isEmpty() || !route.responseHeaders().isEmpty();
    }

    /**
     * The listener's chain with the route's overrides: disabled filters left out (those the
     * listener disables unless the route gives them settings), overridden ones made anew (each
     * filter of the override's name, with the override's settings); and last, the {@code headers}
     * filter of the route's own {@code request_headers} and {@code response_headers}, whose request
     * changes thus come after every other filter's and whose response changes before.
     */
    private static StreamFilterChain routeChain(ListenerConfig listener, RouteEntryConfig route,
            List<StreamFilter> listenerFilters, ExtensionRegistry extensions, MeterRegistry meters) {
        List<StreamFilter> filters = new ArrayList<>();
        for (int i = 0; i < listener.filters().size(); i++) {
            StreamFilterConfig config = listener.filters().get(i);
            StreamFilterConfig override = route.filters().get(config.name());
            if (override == null) {
                if (listenerFilters.get(i) != null) {
                    filters.add(listenerFilters.get(i));
                }
            } else if (!override.disabled()) {
                filters.add(factory(extensions, override).create(override,
                        new FilterScope(listener.name(), route.name(), meters)));
            }
        }
        if (changesHeaders(route)) {
            filters.add(HeadersFilterFactory.routeForm(route.requestHeaders(), route.responseHeaders()));
        }
        return StreamFilterChain.of(filters);
    }

    private static StreamFilterFactory factory(ExtensionRegistry extensions, StreamFilterConfig config) {
        return extensions.find(StreamFilterConfig.class, config.kind(), StreamFilterFactory.class)
                .orElseThrow(() -> new IllegalStateException("no filter factory '" + config.kind()
                        + "' in " + extensions + " (the configuration was loaded with another registry)"));
    }

    /** The chain of requests that took {@code route} (null: none matched). */
    public StreamFilterChain chain(Route route) {
        if (route == null || routeChains.isEmpty()) {
            return chain;
        }
        StreamFilterChain own = routeChains.get(route.config());
        return own == null ? chain : own;
    }
}
