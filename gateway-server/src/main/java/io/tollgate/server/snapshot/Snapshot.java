package io.tollgate.server.snapshot;

import io.tollgate.admin.ServedConfig;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.router.outlier.OutlierDetectors;
import io.tollgate.router.outlier.OutlierListener;
import io.tollgate.router.route.RouteTable;
import io.tollgate.server.dns.DnsClusters;
import io.tollgate.server.filter.ListenerFilters;
import io.tollgate.server.tls.UpstreamTls;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Everything compiled from one configuration, published through one atomic reference: an event
 * loop reads it once per request, so a request never sees half of a change.
 *
 * @param filters the stream filter chains of each listener
 * @param outliers the outlier detectors of the clusters, where requests report their outcomes
 * @param version 1 for the configuration the process started with, one more for each reload
 */
public record Snapshot(GatewayConfig config, ClusterManager clusters, Map<String, RouteTable> routeTables,
        Map<String, ListenerFilters> filters, OutlierDetectors outliers, long version) implements ServedConfig {

    /** What a listener the snapshot does not know routes by (one removed by a reload): nothing. */
    private static final RouteTable NO_ROUTES = RouteTable.compile(new RouteConfig(List.of()));

    public Snapshot {
        routeTables = Map.copyOf(routeTables);
        filters = Map.copyOf(filters);
        if (version < 1) {
            throw new IllegalArgumentException("version: " + version + " (expected: >= 1)");
        }
    }

    /**
     * Compiles a validated configuration; outlier ejections and subset load balancing outcomes
     * are counted in {@code metrics}; ejections are decided and health changes republished on
     * {@code control} (the control thread).
     */
    public static Snapshot compile(GatewayConfig config, GatewayMetrics metrics, Executor control) {
        ClusterManager clusters = ClusterManager.build(config.clusters().stream()
                .map(c -> DnsClusters.asBuilt(c, null)).toList(), control);
        config.clusters().forEach(Snapshot::prepareTls);
        countSubsets(clusters, metrics);
        return new Snapshot(config, clusters, routeTables(config), filters(config, metrics),
                OutlierDetectors.build(clusters, outlierEvents(metrics), System::nanoTime, control), 1);
    }

    /**
     * Builds a cluster's client TLS context here, on the control thread, so that event loops
     * opening its connections only look it up.
     *
     * @throws IllegalArgumentException when the cluster's certificate files cannot be used
     */
    static void prepareTls(ClusterConfig cluster) {
        cluster.tls().ifPresent(tls -> UpstreamTls.of(cluster.name(), tls));
    }

    static Map<String, RouteTable> routeTables(GatewayConfig config) {
        Map<String, RouteTable> tables = new HashMap<>();
        for (ListenerConfig listener : config.listeners()) {
            tables.put(listener.name(), RouteTable.compile(listener.routeConfig()));
        }
        return tables;
    }

    /** Makes the stream filters of every listener, with the factories of the default extension registry. */
    static Map<String, ListenerFilters> filters(GatewayConfig config, GatewayMetrics metrics) {
        Map<String, ListenerFilters> filters = new HashMap<>();
        for (ListenerConfig listener : config.listeners()) {
            filters.put(listener.name(), ListenerFilters.build(listener, ExtensionRegistry.defaults(),
                    metrics.registry()));
        }
        return filters;
    }

    /**
     * Publishes the subset outcomes of every cluster balancing by subsets, and what every {@code
     * original_dst} cluster refused and made; a cluster rebuilt by a
     * reload carries its predecessor's totals on, so the counters never go back.
     */
    static void countSubsets(ClusterManager clusters, GatewayMetrics metrics) {
        clusters.clusters().stream().filter(c -> c.config().subsetLbConfig().isPresent())
                .forEach(c -> metrics.cluster(c.name()).subsetCounts(c.subsetStats()));
        clusters.clusters().stream().filter(c -> c.originalDestinations() != null)
                .forEach(c -> metrics.cluster(c.name()).originalDstCounts(c.originalDestinations().counts()));
    }

    static Function<String, OutlierListener> outlierEvents(GatewayMetrics metrics) {
        return cluster -> new ClusterOutlierEvents(cluster, metrics.cluster(cluster));
    }

    /**
     * The route table of a listener. A listener this snapshot does not configure (removed by a
     * reload while its connections finish) has no routes: its requests are answered as unrouted.
     */
    public RouteTable routeTable(String listener) {
        RouteTable table = routeTables.get(listener);
        return table == null ? NO_ROUTES : table;
    }

    /** The stream filters of a listener; none for a listener this snapshot does not configure. */
    public ListenerFilters filters(String listener) {
        ListenerFilters chains = filters.get(listener);
        return chains == null ? ListenerFilters.NONE : chains;
    }
}
