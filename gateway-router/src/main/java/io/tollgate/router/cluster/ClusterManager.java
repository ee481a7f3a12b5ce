package io.tollgate.router.cluster;

import io.tollgate.core.config.ClusterConfig;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/** All clusters of one configuration snapshot, by name. Immutable once built. */
public final class ClusterManager {

    private final Map<String, Cluster> clusters;

    private ClusterManager(Map<String, Cluster> clusters) {
        this.clusters = clusters;
    }

    /** Builds the clusters of a validated configuration, each republishing health changes at once. */
    public static ClusterManager build(List<ClusterConfig> configs) {
        return of(configs.stream().map(Cluster::new).toList());
    }

    /**
     * Builds the clusters of a validated configuration, each republishing health changes by a
     * task given to {@code republisher} (see {@link Cluster#Cluster(ClusterConfig, Cluster, Executor)}).
     */
    public static ClusterManager build(List<ClusterConfig> configs, Executor republisher) {
        return of(configs.stream().map(config -> new Cluster(config, null, republisher)).toList());
    }

    /** The given clusters, by name; names MUST be unique. */
    public static ClusterManager of(List<Cluster> clusters) {
        Map<String, Cluster> byName = new LinkedHashMap<>();
        for (Cluster cluster : clusters) {
            if (byName.putIfAbsent(cluster.name(), cluster) != null) {
                throw new IllegalArgumentException("clusters: " + cluster.name() + " twice (expected unique names)");
            }
        }
        return new ClusterManager(byName);
    }

    /** Returns the named cluster, or null. */
    public Cluster cluster(String name) {
        return clusters.get(name);
    }

    public Collection<Cluster> clusters() {
        return clusters.values();
    }
}
