package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * The whole configuration of one gateway process: immutable, validated, and swapped as one unit.
 *
 * <p>The YAML file and xDS both produce this model; nothing downstream of it parses text.
 *
 * @param admin where the admin API listens
 * @param eventLoops the number of I/O event loops; 0 means one per available core
 * @param listeners the downstream listeners, names unique
 * @param clusters the upstream clusters, names unique
 * @param demoUpstream an in-process demo upstream server started beside the gateway, if any
 * @param overload the process-wide connection limit and the resource thresholds of load shedding
 * @param xds the control plane that adds listeners and clusters to these, if any
 * @param drain how long a drain lets requests in flight finish
 * @param upgrade where a hot restart finds this process
 * @param configWatch whether the configuration file is reloaded when it changes
 * @param discovery the service registries and the clusters whose hosts are found there
 */
public record GatewayConfig(
        AdminConfig admin,
        int eventLoops,
        List<ListenerConfig> listeners,
        List<ClusterConfig> clusters,
        Optional<DemoUpstreamConfig> demoUpstream,
        OverloadConfig overload,
        Optional<XdsConfig> xds,
        DrainConfig drain,
        UpgradeConfig upgrade,
        ConfigWatchConfig configWatch,
        DiscoveryConfig discovery) {

    public GatewayConfig {
        listeners = List.copyOf(listeners);
        clusters = List.copyOf(clusters);
        requireNonNull(demoUpstream, "demoUpstream");
        requireNonNull(overload, "overload");
        requireNonNull(xds, "xds");
        requireNonNull(drain, "drain");
        requireNonNull(upgrade, "upgrade");
        requireNonNull(configWatch, "configWatch");
        requireNonNull(discovery, "discovery");
    }

    /** A configuration whose file is not watched and that discovers nothing in service registries. */
    public GatewayConfig(AdminConfig admin, int eventLoops, List<ListenerConfig> listeners, List<ClusterConfig> clusters,
            Optional<DemoUpstreamConfig> demoUpstream, OverloadConfig overload, Optional<XdsConfig> xds,
            DrainConfig drain, UpgradeConfig upgrade) {
        this(admin, eventLoops, listeners, clusters, demoUpstream, overload, xds, drain, upgrade, ConfigWatchConfig.OFF,
                DiscoveryConfig.NONE);
    }

    /** A configuration with the default hot restart socket. */
    public GatewayConfig(AdminConfig admin, int eventLoops, List<ListenerConfig> listeners, List<ClusterConfig> clusters,
            Optional<DemoUpstreamConfig> demoUpstream, OverloadConfig overload, Optional<XdsConfig> xds,
            DrainConfig drain) {
        this(admin, eventLoops, listeners, clusters, demoUpstream, overload, xds, drain, UpgradeConfig.defaults(admin));
    }

    /**
     * A configuration with the default overload protection and drain timeout that takes nothing
     * from a control plane.
     */
    public GatewayConfig(AdminConfig admin, int eventLoops, List<ListenerConfig> listeners, List<ClusterConfig> clusters,
            Optional<DemoUpstreamConfig> demoUpstream) {
        this(admin, eventLoops, listeners, clusters, demoUpstream, OverloadConfig.DEFAULTS, Optional.empty(),
                DrainConfig.DEFAULTS);
    }

    /** This configuration with {@code otherListeners} and {@code otherClusters} instead of its own. */
    public GatewayConfig with(List<ListenerConfig> otherListeners, List<ClusterConfig> otherClusters) {
        return new GatewayConfig(admin, eventLoops, otherListeners, otherClusters, demoUpstream, overload, xds, drain,
                upgrade, configWatch, discovery);
    }

    /** Returns the cluster with this name, if configured. */
    public Optional<ClusterConfig> cluster(String name) {
        return clusters.stream().filter(c -> c.name().equals(name)).findFirst();
    }
}
