package io.tollgate.server;

import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.router.route.RouteTable;
import java.util.HashMap;
import java.util.Map;

/**
 * Everything compiled from one configuration, published through one atomic reference: an event
 * loop reads it once per request, so a request never sees half of a change.
 */
public record Snapshot(GatewayConfig config, ClusterManager clusters, Map<String, RouteTable> routeTables) {

    public Snapshot {
        routeTables = Map.copyOf(routeTables);
    }

    /** Compiles a validated configuration. */
    public static Snapshot compile(GatewayConfig config) {
        Map<String, RouteTable> tables = new HashMap<>();
        for (ListenerConfig listener : config.listeners()) {
            tables.put(listener.name(), RouteTable.compile(listener.routeConfig()));
        }
        return new Snapshot(config, ClusterManager.build(config.clusters()), tables);
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
