package io.tollgate.server;

import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.router.outlier.OutlierDetectors;
import io.tollgate.router.route.RouteTable;
import io.tollgate.server.health.ClusterOutlierEvents;
import java.util.HashMap;
import java.util.Map;

/**
 * Everything compiled from one configuration, published through one atomic reference: an event
 * loop reads it once per request, so a request never sees half of a change.
 *
 * @param outliers the outlier detectors of the clusters, where requests report their outcomes
 */
public record Snapshot(GatewayConfig config, ClusterManager clusters, Map<String, RouteTable> routeTables,
        OutlierDetectors outliers) {

    public Snapshot {
        routeTables = Map.copyOf(routeTables);
    }

    /**
     * Compiles a validated configuration; outlier ejections and subset load balancing outcomes
     * are counted in {@code metrics}.
     */
    public static Snapshot compile(GatewayConfig config, GatewayMetrics metrics) {
        Map<String, RouteTable> tables = new HashMap<>();
        for (ListenerConfig listener : config.listeners()) {
            tables.put(listener.name(), RouteTable.compile(listener.routeConfig()));
        }
        ClusterManager clusters = ClusterManager.build(config.clusters());
        clusters.clusters().stream().filter(c -> c.config().subsetLbConfig().isPresent())
                .forEach(c -> metrics.cluster(c.name()).subsetCounts(c.subsetStats()));
        OutlierDetectors outliers = OutlierDetectors.build(clusters,
                cluster -> new ClusterOutlierEvents(cluster, metrics.cluster(cluster)), System::nanoTime);
        return new Snapshot(config, clusters, tables, outliers);
    }

    /** The route table of a listener; MUST only be asked for a configured listener. */
    public RouteTable routeTable(String listener) {
        RouteTable table = routeTables.get(listener);
        if (table == null) {
            throw new IllegalArgumentException("listener: " + listener + " (expected one of " + routeTables.keySet() + ")");
        }
        return table;
    }
}
