package io.tollgate.server.snapshot;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.router.route.RouteTable;
import io.tollgate.server.dns.DnsClusters;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The step from one snapshot to the next for a new configuration, in two halves.
 * {@link #prepare} does everything that can fail (checks what cannot change without a restart,
 * compiles route tables, builds new clusters) and touches nothing that serves traffic, so a bad
 * configuration is rejected whole. {@link #commit} then cannot fail: it updates the clusters
 * that stay in place (their hosts keep health, load, outlier state and pooled connections) and
 * returns the snapshot to publish.
 *
 * <p>A cluster stays (same {@link Cluster} object) when its settings other than the endpoints
 * are unchanged; a cluster whose settings changed is rebuilt, its hosts keeping the health
 * verdicts they had (new hosts wait for their first check). A DNS cluster is built with the hosts
 * its names resolved to ({@link DnsClusters#asBuilt}), never with the names. Both halves run on the
 * control thread.
 */
public final class SnapshotUpdate {

    private final Snapshot previous;
    private final GatewayConfig config;
    private final Map<String, RouteTable> routeTables;
    private final List<Cluster> clusters;
    private final Map<Cluster, List<EndpointConfig>> kept;

    private SnapshotUpdate(Snapshot previous, GatewayConfig config, Map<String, RouteTable> routeTables,
            List<Cluster> clusters, Map<Cluster, List<EndpointConfig>> kept) {
        this.previous = previous;
        this.config = config;
        this.routeTables = routeTables;
        this.clusters = clusters;
        this.kept = kept;
    }

    /**
     * Prepares the step from {@code previous} to the validated {@code config}; new clusters
     * republish their health changes on {@code control}.
     *
     * @throws ConfigException naming the field when {@code config} changes what only a restart
     *     can change (the admin API, the event loops, the demo upstream), or a cluster cannot be built
     */
    public static SnapshotUpdate prepare(Snapshot previous, GatewayConfig config, Executor control) {
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(config, "config");
        GatewayConfig current = previous.config();
        requireUnchanged("admin", current.admin(), config.admin());
        requireUnchanged("event_loops", current.eventLoops(), config.eventLoops());
        requireUnchanged("demo_upstream", current.demoUpstream(), config.demoUpstream());
        List<Cluster> clusters = new ArrayList<>();
        Map<Cluster, List<EndpointConfig>> kept = new IdentityHashMap<>();
        for (int i = 0; i < config.clusters().size(); i++) {
            ClusterConfig declared = config.clusters().get(i);
            Cluster before = previous.clusters().cluster(declared.name());
            ClusterConfig cluster = DnsClusters.asBuilt(declared, before);
            if (before != null && sameSettings(before.config(), cluster)) {
                clusters.add(before);
                kept.put(before, cluster.endpoints());
                continue;
            }
            try {
                Snapshot.prepareTls(cluster);
                clusters.add(new Cluster(cluster, before, control));
            } catch (IllegalArgumentException e) {
                throw new ConfigException("clusters[" + i + "]." + e.getMessage(), e);
            }
        }
        return new SnapshotUpdate(previous, config, Snapshot.routeTables(config), clusters, kept);
    }

    /** The listeners of the new configuration the old one did not have. */
    public List<ListenerConfig> addedListeners() {
        return config.listeners().stream().filter(l -> !named(previous.config(), l.name())).toList();
    }

    /**
     * The listeners of the new configuration whose sockets or connections are set up otherwise
     * than the old one's of the same name (address, port, protocols, TLS, network filters, limits,
     * options): each replaces the old, which drains. Routes and stream filters are not among these
     * changes: every snapshot compiles them anew.
     */
    public List<ListenerConfig> changedListeners() {
        return config.listeners().stream().filter(l -> previous.config().listeners().stream()
                .anyMatch(before -> before.name().equals(l.name()) && !bound(before).equals(bound(l)))).toList();
    }

    /** The names of the old configuration's listeners the new one no longer has. */
    public List<String> removedListeners() {
        return previous.config().listeners().stream().map(ListenerConfig::name).filter(n -> !named(config, n)).toList();
    }

    /**
     * Applies the endpoint changes to the clusters that stay and returns the next snapshot, whose
     * ejections are decided on {@code control}; cannot fail.
     */
    public Snapshot commit(GatewayMetrics metrics, Executor control) {
        kept.forEach(Cluster::replaceEndpoints);
        ClusterManager next = ClusterManager.of(clusters);
        Snapshot.countSubsets(next, metrics);
        return new Snapshot(config, next, routeTables, Snapshot.filters(config, metrics),
                previous.outliers().next(next, kept.keySet(), Snapshot.outlierEvents(metrics), System::nanoTime,
                        control),
                previous.version() + 1);
    }

    private static boolean named(GatewayConfig config, String listener) {
        return config.listeners().stream().anyMatch(l -> l.name().equals(listener));
    }

    private static boolean sameSettings(ClusterConfig before, ClusterConfig after) {
        return before.withEndpoints(List.of()).equals(after.withEndpoints(List.of()));
    }

    /**
     * What a listener's sockets and connections were set up with, which only a restart changes:
     * all but its routes and its stream filters, both compiled into each snapshot anew.
     */
    private static ListenerConfig bound(ListenerConfig listener) {
        return new ListenerConfig(listener.name(), listener.address(), listener.port(), listener.protocols(),
                new RouteConfig(List.of()), listener.http(), listener.accessLog(), listener.protocolOptions(),
                listener.http2(), listener.tls(), listener.limits(), List.of(), listener.networkFilters(),
                listener.proxyProtocol(), listener.transparent());
    }

    private static void requireUnchanged(String field, Object before, Object after) {
        if (!before.equals(after)) {
            throw new ConfigException(field + ": " + after + " (expected the running " + before
                    + ": it changes only with a restart)");
        }
    }
}
