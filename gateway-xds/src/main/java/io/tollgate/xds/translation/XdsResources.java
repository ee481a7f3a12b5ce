package io.tollgate.xds.translation;

import io.tollgate.core.config.EndpointConfig;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The resources accepted from the control plane, translated and validated, by type and name:
 * immutable, so that a response is tried on a copy and kept only once it applied.
 *
 * @param endpoints by EDS service name
 * @param secrets SDS secrets, by name
 */
public record XdsResources(
        Map<String, ListenerTranslator.Translated> listeners,
        Map<String, RouteTranslator.Translated> routes,
        Map<String, ClusterTranslator.Translated> clusters,
        Map<String, List<EndpointConfig>> endpoints,
        Map<String, TlsSecret> secrets) {

    public static final XdsResources EMPTY = new XdsResources(Map.of(), Map.of(), Map.of(), Map.of(), Map.of());

    public XdsResources {
        listeners = Map.copyOf(listeners);
        routes = Map.copyOf(routes);
        clusters = Map.copyOf(clusters);
        endpoints = Map.copyOf(endpoints);
        secrets = Map.copyOf(secrets);
    }

    XdsResources withListeners(Map<String, ListenerTranslator.Translated> all) {
        XdsResources next = new XdsResources(all, retain(routes, all.values().stream()
                .flatMap(l -> l.rdsName().stream()).toList()), clusters, endpoints, secrets);
        return next.withSecrets(Map.of());
    }

    XdsResources withClusters(Map<String, ClusterTranslator.Translated> all) {
        XdsResources next = new XdsResources(listeners, routes, all, retain(endpoints, all.values().stream()
                .flatMap(c -> c.edsServiceName().stream()).toList()), secrets);
        return next.withSecrets(Map.of());
    }

    /** These resources with {@code received} added or replacing those of the same name. */
    XdsResources withRoutes(Map<String, RouteTranslator.Translated> received) {
        Map<String, RouteTranslator.Translated> all = new HashMap<>(routes);
        all.putAll(received);
        return new XdsResources(listeners, retain(all, rdsNames()), clusters, endpoints, secrets);
    }

    /** These resources with {@code received} added or replacing those of the same service name. */
    XdsResources withEndpoints(Map<String, List<EndpointConfig>> received) {
        Map<String, List<EndpointConfig>> all = new HashMap<>(endpoints);
        all.putAll(received);
        return new XdsResources(listeners, routes, clusters, retain(all, edsNames()), secrets);
    }

    /** These resources with {@code received} added or replacing the secrets of the same name. */
    XdsResources withSecrets(Map<String, TlsSecret> received) {
        Map<String, TlsSecret> all = new HashMap<>(secrets);
        all.putAll(received);
        return new XdsResources(listeners, routes, clusters, endpoints, retain(all, sdsNames()));
    }

    /** These resources without those of {@code type} called {@code names}. */
    XdsResources without(ResourceType type, Collection<String> names) {
        if (names.isEmpty()) {
            return this;
        }
        return switch (type) {
            case CLUSTER -> withClusters(removed(clusters, names));
            case LISTENER -> withListeners(removed(listeners, names));
            case ROUTE -> new XdsResources(listeners, removed(routes, names), clusters, endpoints, secrets);
            case ENDPOINT -> new XdsResources(listeners, routes, clusters, removed(endpoints, names), secrets);
            case SECRET -> new XdsResources(listeners, routes, clusters, endpoints, removed(secrets, names));
        };
    }

    /** The secrets the listeners and clusters ask SDS for. */
    public List<String> sdsNames() {
        return Stream.concat(
                listeners.values().stream().flatMap(l -> l.tls().stream()).flatMap(t -> t.names().stream()),
                clusters.values().stream().flatMap(c -> c.tls().stream()).flatMap(t -> t.names().stream()))
                .distinct().sorted().toList();
    }

    /** The route configurations the listeners ask RDS for. */
    public List<String> rdsNames() {
        return listeners.values().stream().flatMap(l -> l.rdsName().stream()).distinct().sorted().toList();
    }

    /** The service names the clusters ask EDS for. */
    public List<String> edsNames() {
        return clusters.values().stream().flatMap(c -> c.edsServiceName().stream()).distinct().sorted().toList();
    }

    /** The names of the resources of {@code type} held. */
    public Set<String> names(ResourceType type) {
        return switch (type) {
            case CLUSTER -> clusters.keySet();
            case LISTENER -> listeners.keySet();
            case ROUTE -> routes.keySet();
            case ENDPOINT -> endpoints.keySet();
            case SECRET -> secrets.keySet();
        };
    }

    /** Whether a resource {@code name} of {@code type} arrived. */
    public boolean has(ResourceType type, String name) {
        return names(type).contains(name);
    }

    /**
     * How long {@code name} of a named type is waited for: the longest {@code initial_fetch_timeout}
     * of the resources naming it; zero (for ever) when one of them says so or none names it.
     */
    public Duration initialFetchTimeout(ResourceType type, String name) {
        List<Duration> timeouts = switch (type) {
            case ROUTE -> listeners.values().stream().filter(l -> l.rdsName().equals(Optional.of(name)))
                    .map(ListenerTranslator.Translated::rdsFetchTimeout).toList();
            case ENDPOINT -> clusters.values().stream().filter(c -> c.edsServiceName().equals(Optional.of(name)))
                    .map(ClusterTranslator.Translated::edsFetchTimeout).toList();
            case SECRET -> Stream.concat(
                    listeners.values().stream().flatMap(l -> l.tls().stream())
                            .filter(t -> t.names().contains(name)).map(t -> t.fetchTimeout()),
                    clusters.values().stream().flatMap(c -> c.tls().stream())
                            .filter(t -> t.names().contains(name)).map(t -> t.fetchTimeout())).toList();
            case CLUSTER, LISTENER -> List.of();
        };
        if (timeouts.isEmpty() || timeouts.contains(Duration.ZERO)) {
            return Duration.ZERO;
        }
        return timeouts.stream().max(Duration::compareTo).orElseThrow();
    }

    private static <V> Map<String, V> removed(Map<String, V> map, Collection<String> names) {
        Map<String, V> kept = new HashMap<>(map);
        kept.keySet().removeAll(names);
        return kept;
    }

    /** Only the entries still subscribed to: a route or assignment nobody names any more is forgotten. */
    private static <V> Map<String, V> retain(Map<String, V> map, List<String> names) {
        Map<String, V> kept = new HashMap<>(map);
        kept.keySet().retainAll(names);
        return kept;
    }
}
