package io.tollgate.core.metrics;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.MeterRegistry;
import io.tollgate.core.accesslog.AccessLogTap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The entry point to the gateway's meters: one per process, it hands out per-listener and
 * per-cluster handles whose meters are resolved once, so that the hot path only increments.
 */
public final class GatewayMetrics {

    private final MeterRegistry registry;
    private final ConcurrentMap<String, ListenerMetrics> listeners = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, ClusterMetrics> clusters = new ConcurrentHashMap<>();
    private final ConnectionErrorMeters connectionErrors;
    private final AccessLogTap accessLogTap = new AccessLogTap();

    public GatewayMetrics(MeterRegistry registry) {
        this.registry = requireNonNull(registry, "registry");
        this.connectionErrors = new ConnectionErrorMeters(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /**
     * The process's copy of finished requests for the admin console's live access log: not a
     * meter, but it goes wherever the meters go, so every listener's records reach it.
     */
    public AccessLogTap accessLogTap() {
        return accessLogTap;
    }

    /** Returns the meters of a listener, the same instance for the same name. */
    public ListenerMetrics listener(String listenerName) {
        requireNonNull(listenerName, "listenerName");
        return listeners.computeIfAbsent(listenerName, name -> new ListenerMetrics(registry, name, connectionErrors));
    }

    /**
     * Returns the meters of a cluster, the same instance for the same name. Requests ask on every
     * exchange: a cluster already seen is only read, with nothing allocated.
     */
    public ClusterMetrics cluster(String clusterName) {
        requireNonNull(clusterName, "clusterName");
        ClusterMetrics known = clusters.get(clusterName);
        if (known != null) {
            return known;
        }
        return clusters.computeIfAbsent(clusterName, name -> new ClusterMetrics(registry, name, connectionErrors));
    }
}
