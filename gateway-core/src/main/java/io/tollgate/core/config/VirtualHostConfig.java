package io.tollgate.core.config;

import java.util.List;

/**
 * A set of domains (HTTP Host, or the RPC service name for Bolt and Dubbo) and the routes tried
 * in order for requests to them.
 *
 * @param name unique within the listener
 * @param domains exact names, {@code *.suffix} wildcards, {@code prefix.*} wildcards, or {@code *}
 * @param routes tried in order, first match wins
 */
public record VirtualHostConfig(String name, List<String> domains, List<RouteEntryConfig> routes) {

    public VirtualHostConfig {
        domains = List.copyOf(domains);
        routes = List.copyOf(routes);
    }
}
