package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
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
 * @param connectionsPerHost for multiplexed protocols (Bolt): the connections one event loop keeps
 *     to one host, all requests spread over them
 * @param heartbeatInterval for Bolt and h2: an upstream connection idle this long gets a heartbeat
 *     (an HTTP/2 PING), and one whose heartbeat is still unanswered an interval later is closed
 * @param healthCheck active health checking of the hosts, if any
 * @param outlierDetection ejection of hosts whose requests keep failing, if any
 * @param panicThresholdPercent when fewer than this share of the hosts are healthy, requests go
 *     to every host, healthy or not, so that a few survivors are not crushed; 0 turns it off
 * @param subsetLbConfig when present, requests are routed to subsets of hosts by label
 * @param protocol for HTTP routes, the protocol spoken to the hosts, whatever the client speaks:
 *     {@value #HTTP1} or {@value #H2} (HTTP/2 with prior knowledge, multiplexed)
 * @param circuitBreakers limits on the connections, pending requests, requests and retries of
 *     the whole cluster, across event loops
 * @param loadBalancing the load balancer's settings: hash policy, ring and table sizes, slow start
 * @param tls when present, connections to the hosts (requests and health checks) are encrypted
 * @param proxyProtocol when present, every connection the TCP proxy opens to a host starts with a
 *     PROXY protocol header of this version, carrying the client's address (before TLS, if any)
 * @param dns when present, a {@code strict_dns} or {@code logical_dns} cluster: its endpoints name
 *     hosts to resolve again and again; when empty ({@code static}), an endpoint's name is resolved
 *     once, when the configuration is loaded
 * @param originalDst when present, an {@code original_dst} cluster: no endpoints; each connection
 *     goes on to where it was sent before a transparent listener took it
 */
public record ClusterConfig(
        String name,
        String lbPolicy,
        List<EndpointConfig> endpoints,
        Duration connectTimeout,
        int maxConnectionsPerHost,
        int maxPendingRequests,
        Duration idleTimeout,
        int connectionsPerHost,
        Duration heartbeatInterval,
        Optional<HealthCheckConfig> healthCheck,
        Optional<OutlierDetectionConfig> outlierDetection,
        int panicThresholdPercent,
        Optional<SubsetLbConfig> subsetLbConfig,
        String protocol,
        CircuitBreakersConfig circuitBreakers,
        LoadBalancingConfig loadBalancing,
        Optional<UpstreamTlsConfig> tls,
        Optional<UpstreamProxyProtocol> proxyProtocol,
        Optional<DnsConfig> dns,
        Optional<OriginalDstConfig> originalDst) {

    /** Upstream HTTP/1.1, one request at a time per pooled connection. */
    public static final String HTTP1 = "http1";
    /** Upstream HTTP/2 over cleartext with prior knowledge, many streams per connection. */
    public static final String H2 = "h2";

    /** One multiplexed connection per host and event loop. */
    public static final int DEFAULT_CONNECTIONS_PER_HOST = 1;
    /** The interval Bolt clients themselves use. */
    public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(15);
    /** Envoy's default: panic below half of the hosts healthy. */
    public static final int DEFAULT_PANIC_THRESHOLD_PERCENT = 50;

    public ClusterConfig {
        endpoints = List.copyOf(endpoints);
        requireNonNull(loadBalancing, "loadBalancing");
        if (panicThresholdPercent < 0 || panicThresholdPercent > 100) {
            throw new IllegalArgumentException("panicThresholdPercent: " + panicThresholdPercent + " (expected: 0..100)");
        }
        if (!HTTP1.equals(protocol) && !H2.equals(protocol)) {
            throw new IllegalArgumentException("protocol: " + protocol + " (expected: " + HTTP1 + " or " + H2 + ")");
        }
        Objects.requireNonNull(circuitBreakers, "circuitBreakers");
        requireNonNull(tls, "tls");
        requireNonNull(proxyProtocol, "proxyProtocol");
        requireNonNull(dns, "dns");
        requireNonNull(originalDst, "originalDst");
        if (originalDst.isPresent() && !endpoints.isEmpty()) {
            throw new InvalidFieldException("endpoints", "an original_dst cluster has none (each connection goes"
                    + " where it was sent)");
        }
    }

    /** A cluster that is not of type {@code original_dst}. */
    public ClusterConfig(String name, String lbPolicy, List<EndpointConfig> endpoints, Duration connectTimeout,
            int maxConnectionsPerHost, int maxPendingRequests, Duration idleTimeout, int connectionsPerHost,
            Duration heartbeatInterval, Optional<HealthCheckConfig> healthCheck,
            Optional<OutlierDetectionConfig> outlierDetection, int panicThresholdPercent,
            Optional<SubsetLbConfig> subsetLbConfig, String protocol, CircuitBreakersConfig circuitBreakers,
            LoadBalancingConfig loadBalancing, Optional<UpstreamTlsConfig> tls,
            Optional<UpstreamProxyProtocol> proxyProtocol, Optional<DnsConfig> dns) {
        this(name, lbPolicy, endpoints, connectTimeout, maxConnectionsPerHost, maxPendingRequests, idleTimeout,
                connectionsPerHost, heartbeatInterval, healthCheck, outlierDetection, panicThresholdPercent,
                subsetLbConfig, protocol, circuitBreakers, loadBalancing, tls, proxyProtocol, dns, Optional.empty());
    }

    /** A cluster whose connections start with no PROXY protocol header, its endpoints resolved once. */
    public ClusterConfig(String name, String lbPolicy, List<EndpointConfig> endpoints, Duration connectTimeout,
            int maxConnectionsPerHost, int maxPendingRequests, Duration idleTimeout, int connectionsPerHost,
            Duration heartbeatInterval, Optional<HealthCheckConfig> healthCheck,
            Optional<OutlierDetectionConfig> outlierDetection, int panicThresholdPercent,
            Optional<SubsetLbConfig> subsetLbConfig, String protocol, CircuitBreakersConfig circuitBreakers,
            LoadBalancingConfig loadBalancing, Optional<UpstreamTlsConfig> tls) {
        this(name, lbPolicy, endpoints, connectTimeout, maxConnectionsPerHost, maxPendingRequests, idleTimeout,
                connectionsPerHost, heartbeatInterval, healthCheck, outlierDetection, panicThresholdPercent,
                subsetLbConfig, protocol, circuitBreakers, loadBalancing, tls, Optional.empty(), Optional.empty());
    }

    /** A cluster with every optional setting at its default. */
    public ClusterConfig(String name, String lbPolicy, List<EndpointConfig> endpoints, Duration connectTimeout,
            int maxConnectionsPerHost, int maxPendingRequests, Duration idleTimeout) {
        this(name, lbPolicy, endpoints, connectTimeout, maxConnectionsPerHost, maxPendingRequests, idleTimeout,
                DEFAULT_CONNECTIONS_PER_HOST, DEFAULT_HEARTBEAT_INTERVAL, Optional.empty(), Optional.empty(),
                DEFAULT_PANIC_THRESHOLD_PERCENT, Optional.empty(), HTTP1, CircuitBreakersConfig.DEFAULTS,
                LoadBalancingConfig.DEFAULTS, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** This cluster with other endpoints; reloads compare clusters with their endpoints set aside. */
    public ClusterConfig withEndpoints(List<EndpointConfig> otherEndpoints) {
        return new ClusterConfig(name, lbPolicy, otherEndpoints, connectTimeout, maxConnectionsPerHost,
                maxPendingRequests, idleTimeout, connectionsPerHost, heartbeatInterval, healthCheck, outlierDetection,
                panicThresholdPercent, subsetLbConfig, protocol, circuitBreakers, loadBalancing, tls, proxyProtocol, dns,
                originalDst);
    }

    /** This cluster under another name (a discovered service's cluster made from a template). */
    public ClusterConfig withName(String otherName) {
        return new ClusterConfig(otherName, lbPolicy, endpoints, connectTimeout, maxConnectionsPerHost,
                maxPendingRequests, idleTimeout, connectionsPerHost, heartbeatInterval, healthCheck, outlierDetection,
                panicThresholdPercent, subsetLbConfig, protocol, circuitBreakers, loadBalancing, tls, proxyProtocol, dns,
                originalDst);
    }

    /** This cluster balancing by the given subsets (or by none). */
    public ClusterConfig withSubsetLbConfig(Optional<SubsetLbConfig> subsets) {
        return new ClusterConfig(name, lbPolicy, endpoints, connectTimeout, maxConnectionsPerHost, maxPendingRequests,
                idleTimeout, connectionsPerHost, heartbeatInterval, healthCheck, outlierDetection, panicThresholdPercent,
                subsets, protocol, circuitBreakers, loadBalancing, tls, proxyProtocol, dns, originalDst);
    }

    /** This cluster connecting to its hosts with the TLS settings {@code settings} (or in cleartext). */
    public ClusterConfig withTls(Optional<UpstreamTlsConfig> settings) {
        return new ClusterConfig(name, lbPolicy, endpoints, connectTimeout, maxConnectionsPerHost, maxPendingRequests,
                idleTimeout, connectionsPerHost, heartbeatInterval, healthCheck, outlierDetection, panicThresholdPercent,
                subsetLbConfig, protocol, circuitBreakers, loadBalancing, settings, proxyProtocol, dns, originalDst);
    }

    /** This cluster with the load balancer settings {@code settings}. */
    public ClusterConfig withLoadBalancing(LoadBalancingConfig settings) {
        return new ClusterConfig(name, lbPolicy, endpoints, connectTimeout, maxConnectionsPerHost, maxPendingRequests,
                idleTimeout, connectionsPerHost, heartbeatInterval, healthCheck, outlierDetection, panicThresholdPercent,
                subsetLbConfig, protocol, circuitBreakers, settings, tls, proxyProtocol, dns, originalDst);
    }
}
