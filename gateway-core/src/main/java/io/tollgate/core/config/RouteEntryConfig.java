package io.tollgate.core.config;

import io.tollgate.core.filter.StreamFilterConfig;
import java.util.Map;
import java.util.Optional;

/**
 * One route: a match and exactly one action (forward, direct response, redirect, or an RPC call
 * made from the HTTP request, which is forwarded as {@code forward} says), plus header
 * mutations applied to the request and to the response, and the route's overrides of its
 * listener's stream filters.
 *
 * @param filters by filter name, the settings that replace the listener's for this route, or an
 *     entry that disables the filter here; empty when the route runs the listener's chain as it is
 * @param rpcCall present when the route's action is {@code rpc_call}: the request becomes a generic
 *     RPC call, forwarded as {@code forward} says (which is then present too)
 */
public record RouteEntryConfig(
        String name,
        RouteMatchConfig match,
        Optional<ForwardActionConfig> forward,
        Optional<DirectResponseConfig> directResponse,
        Optional<RedirectConfig> redirect,
        HeaderMutationConfig requestHeaders,
        HeaderMutationConfig responseHeaders,
        Map<String, StreamFilterConfig> filters,
        Optional<RpcCallConfig> rpcCall) {

    public RouteEntryConfig {
        filters = Map.copyOf(filters);
        if (rpcCall.isPresent() && forward.isEmpty()) {
            throw new IllegalArgumentException("rpcCall needs forward: where the call goes");
        }
    }

    /** A route whose action is no RPC call. */
    public RouteEntryConfig(String name, RouteMatchConfig match, Optional<ForwardActionConfig> forward,
            Optional<DirectResponseConfig> directResponse, Optional<RedirectConfig> redirect,
            HeaderMutationConfig requestHeaders, HeaderMutationConfig responseHeaders,
            Map<String, StreamFilterConfig> filters) {
        this(name, match, forward, directResponse, redirect, requestHeaders, responseHeaders, filters, Optional.empty());
    }

    /** A route that runs its listener's filters unchanged. */
    public RouteEntryConfig(String name, RouteMatchConfig match, Optional<ForwardActionConfig> forward,
            Optional<DirectResponseConfig> directResponse, Optional<RedirectConfig> redirect,
            HeaderMutationConfig requestHeaders, HeaderMutationConfig responseHeaders) {
        this(name, match, forward, directResponse, redirect, requestHeaders, responseHeaders, Map.of());
    }
}
