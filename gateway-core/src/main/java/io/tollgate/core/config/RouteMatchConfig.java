package io.tollgate.core.config;

import java.util.List;
import java.util.Optional;

/**
 * What a request must look like for a route to apply. Exactly one of path, prefix and regex is
 * set; every header and query matcher must match too.
 */
public record RouteMatchConfig(
        Optional<String> path,
        Optional<String> prefix,
        Optional<String> regex,
        List<ValueMatcherConfig> headers,
        List<ValueMatcherConfig> queryParameters) {

    public RouteMatchConfig {
        headers = List.copyOf(headers);
        queryParameters = List.copyOf(queryParameters);
    }
}
