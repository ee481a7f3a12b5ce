package io.tollgate.core.config;

import java.util.Map;
import java.util.Optional;

/**
 * One route: a match and exactly one action (forward, direct response or redirect), plus header
 * mutations applied to the request and to the response, and the route's overrides of its
 * listener's stream filters.
 *
 * @param filters by filter name, the settings that replace the listener's for this route, or an
 *     entry that disables the filter here; empty when the route runs the listener's chain as it is
 */
public record RouteEntryConfig(
        String name,
        RouteMatchConfig match,
        Optional<ForwardActionConfig> forward,
        Optional<DirectResponseConfig> directResponse,
        Optional<RedirectConfig> redirect,
        HeaderMutationConfig requestHeaders,
        HeaderMutationConfig responseHeaders,
        Map<String, StreamFilterConfig> filters) {

    public RouteEntryConfig {
        filters = Map.copyOf(filters);
    }

    /** A route that runs its listener's filters unchanged. */
    public RouteEntryConfig(String name, RouteMatchConfig match, Optional<ForwardActionConfig> forward,
            Optional<DirectResponseConfig> directResponse, Optional<RedirectConfig> redirect,
            HeaderMutationConfig requestHeaders, HeaderMutationConfig responseHeaders) {
        this(name, match, forward, directResponse, redirect, requestHeaders, responseHeaders, Map.of());
    }
}
