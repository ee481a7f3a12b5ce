package io.tollgate.core.config;

import java.util.Optional;

/**
 * One route: a match and exactly one action (forward, direct response or redirect), plus header
 * mutations applied to the request and to the response.
 */
public record RouteEntryConfig(
        String name,
        RouteMatchConfig match,
        Optional<ForwardActionConfig> forward,
        Optional<DirectResponseConfig> directResponse,
        Optional<RedirectConfig> redirect,
        HeaderMutationConfig requestHeaders,
        HeaderMutationConfig responseHeaders) {
}
