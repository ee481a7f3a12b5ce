package io.tollgate.xds;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ForwardActionConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.VirtualHostConfig;
import io.tollgate.core.config.WeightedClusterConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds the configuration to serve from the file's listeners and clusters and the accepted
 * dynamic resources, warming as Envoy does: an EDS cluster joins once its endpoints arrived, and
 * a listener switches to a new version only once its routes arrived and every cluster they name is
 * there. Until then, the version served before stays (or, for a new one, nothing is served).
 */
final class ConfigComposer {

    private final GatewayConfig bootstrap;
    private Map<String, ListenerConfig> appliedListeners = Map.of();
    private Map<String, ClusterConfig> appliedClusters = Map.of();

    ConfigComposer(GatewayConfig bootstrap) {
        this.bootstrap = bootstrap;
    }

    /** What {@link #compose} built: the configuration and which dynamic resources are still warming. */
    record Composition(GatewayConfig config, Map<String, ListenerConfig> listeners, Map<String, ClusterConfig> clusters,
            List<String> warming) {
    }

    Composition compose(XdsResources resources) {
        List<String> warming = new ArrayList<>();
        Map<String, ClusterConfig> clusters = new TreeMap<>();
        resources.clusters().forEach((name, cluster) -> {
            if (cluster.edsServiceName().isEmpty()) {
                clusters.put(name, cluster.config());
                return;
            }
            List<EndpointConfig> endpoints = resources.endpoints().get(cluster.edsServiceName().get());
            if (endpoints != null) {
                clusters.put(name, cluster.config().withEndpoints(endpoints));
                return;
            }
            warming.add("Cluster '" + name + "'");
            ClusterConfig previous = appliedClusters.get(name);
            if (previous != null) {
                clusters.put(name, previous);
            }
        });
        Set<String> known = new HashSet<>(clusters.keySet());
        bootstrap.clusters().forEach(c -> known.add(c.name()));
        Map<String, ListenerConfig> listeners = new TreeMap<>();
        resources.listeners().forEach((name, listener) -> {
            RouteConfig routes = listener.rdsName().isPresent() ? resources.routes().get(listener.rdsName().get())
                    : listener.config().routeConfig();
            if (routes != null && known.containsAll(clusterNames(routes))) {
                listeners.put(name, listener.withRoutes(routes));
                return;
            }
            warming.add("Listener '" + name + "'");
            ListenerConfig previous = appliedListeners.get(name);
            if (previous != null && known.containsAll(clusterNames(previous.routeConfig()))) {
                listeners.put(name, previous);
            }
        });
        List<ListenerConfig> allListeners = new ArrayList<>(bootstrap.listeners());
        allListeners.addAll(listeners.values());
        List<ClusterConfig> allClusters = new ArrayList<>(bootstrap.clusters());
        allClusters.addAll(clusters.values());
        return new Composition(bootstrap.with(allListeners, allClusters), listeners, clusters, List.copyOf(warming));
    }

    /** A composer for another configuration file that remembers what this one served. */
    ConfigComposer withBootstrap(GatewayConfig file) {
        ConfigComposer next = new ConfigComposer(file);
        next.appliedListeners = appliedListeners;
        next.appliedClusters = appliedClusters;
        return next;
    }

    /** Records what {@code composition} served, the versions kept while newer ones warm. */
    void applied(Composition composition) {
        appliedListeners = new LinkedHashMap<>(composition.listeners());
        appliedClusters = new LinkedHashMap<>(composition.clusters());
    }

    /** Every cluster the routes of {@code routes} forward to. */
    static Set<String> clusterNames(RouteConfig routes) {
        Set<String> names = new HashSet<>();
        for (VirtualHostConfig host : routes.virtualHosts()) {
            for (RouteEntryConfig route : host.routes()) {
                route.forward().flatMap(ForwardActionConfig::cluster).ifPresent(names::add);
                route.forward().ifPresent(f -> f.weightedClusters().stream().map(WeightedClusterConfig::name)
                        .forEach(names::add));
            }
        }
        return names;
    }
}
