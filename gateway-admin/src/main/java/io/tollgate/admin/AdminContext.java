package io.tollgate.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tollgate.core.accesslog.AccessLogTap;
import io.tollgate.core.config.XdsResourceStatus;
import io.tollgate.discovery.RegistryStatus;
import io.tollgate.router.cluster.ClusterManager;
import java.util.List;

/**
 * What the admin API may see of the running gateway; implemented by the server so that this
 * module depends on no part of it. Every method is called on the admin thread and MUST be
 * cheap and thread-safe.
 */
public interface AdminContext {

    /** The configuration being served with its version, read at once from what the gateway published. */
    ServedConfig served();

    /**
     * Reads the configuration again from where the gateway got it and applies it; returns the
     * version applied.
     *
     * @throws io.tollgate.core.config.ConfigException when it is rejected; the running one stays
     */
    long reload();

    /** The clusters of the configuration being served, with live host state. */
    ClusterManager clusters();

    /** The listeners as bound, with their actual ports. */
    List<ListenerInfo> listeners();

    /** The registry every gateway meter is registered in. */
    PrometheusMeterRegistry prometheus();

    /**
     * Whether the gateway takes traffic: false while starting, until the first configuration from
     * the xDS control plane (if any) is applied, and once draining.
     */
    boolean ready();

    /** The process's state and the controls of its lifecycle: health check failing, drain, exit. */
    ServerControl server();

    /** The resources received from the xDS control plane, with versions and rejections; empty without one. */
    default List<XdsResourceStatus> xdsResources() {
        return List.of();
    }

    /**
     * Where the event loops hand finished requests to the console's live access log; by default a
     * tap nothing feeds, for a context without traffic.
     */
    default AccessLogTap accessLogTap() {
        return new AccessLogTap();
    }

    /** The state of each service registry; empty without {@code registries}. */
    default List<RegistryStatus> registries() {
        return List.of();
    }

    /** The services whose providers make clusters' hosts; empty without discovery. */
    default List<DiscoveredService> discoveredServices() {
        return List.of();
    }
}
