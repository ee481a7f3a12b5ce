package io.tollgate.core.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A named group of upstream hosts and how connections to them are made and pooled.
 *
 * @param name unique cluster name, referenced by routes
 * @param lbPolicy the load balancer's registered name, e.g. {@code round_robin}
 * @param endpoints the hosts; names resolved once when the configuration is loaded
 * @param connectTimeout the longest a TCP connect may take
 * @param maxConnectionsPerHost the most connections one event loop opens to one host
 * @param maxPendingRequests requests that may wait for a connection per host and event loop;
 *     past it the request overflows (503)
 * @param idleTimeout pooled connections idle this long are closed; keep it below the
 *     upstream's own keep-alive timeout
 * @param subsetLbConfig when present, requests are routed to subsets of hosts by label
 */
public record ClusterConfig(
        String name,
        String lbPolicy,
        List<EndpointConfig> endpoints,
        Duration connectTimeout,
        int maxConnectionsPerHost,
        int maxPendingRequests,
        Duration idleTimeout,
        Optional<SubsetLbConfig> subsetLbConfig) {

    public ClusterConfig {
        endpoints = List.copyOf(endpoints);
    }
}
