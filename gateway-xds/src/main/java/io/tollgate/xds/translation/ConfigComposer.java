package io.tollgate.xds.translation;

import io.tollgate.core.config.CertificateFiles;
import io.tollgate.core.config.ClientAuthConfig;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ForwardActionConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.SniCertificateConfig;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.config.UpstreamTlsConfig;
import io.tollgate.core.config.VirtualHostConfig;
import io.tollgate.core.config.WeightedClusterConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.filter.ClusterReferences;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds the configuration to serve from the file's listeners and clusters and the accepted
 * dynamic resources, warming as Envoy does: an EDS cluster joins once its endpoints arrived, and
 * a listener switches to a new version only once its routes arrived and every cluster they name is
 * there; a TLS listener or cluster waits for the SDS secrets it names. Until then, the version
 * served before stays (or, for a new one, nothing is served).
 *
 * <p>A cluster with health checks that is served for the first time takes no new routes until its
 * hosts had their first verdicts, the way the gateway waits for them at start-up. A resource
 * whose {@code initial_fetch_timeout} passed stops holding warming (see {@link #givenUp(Set)}).
 */
public final class ConfigComposer {

    private final GatewayConfig bootstrap;
    private final SecretFiles secretFiles;
    private final ExtensionRegistry extensions;
    private Map<String, ServedRoutes> servedRoutes = Map.of();
    private Map<String, ListenerConfig> appliedListeners = Map.of();
    private Map<String, ClusterConfig> appliedClusters = Map.of();
    private Set<String> checked = Set.of();
    private Set<String> givenUp = Set.of();

    public ConfigComposer(GatewayConfig bootstrap, SecretFiles secretFiles, ExtensionRegistry extensions) {
        this.bootstrap = bootstrap;
        this.secretFiles = secretFiles;
        this.extensions = extensions;
    }

    /**
     * What {@link #compose} built: the configuration, which dynamic resources are still warming
     * (and hold the gateway's readiness), and the health-checked clusters served for the first
     * time, whose routes switch once their hosts had a first verdict.
     */
    public record Composition(GatewayConfig config, Map<String, ListenerConfig> listeners, Map<String, ClusterConfig> clusters,
            List<String> warming, List<String> awaitingVerdicts) {
    }

    public Composition compose(XdsResources resources) {
        List<String> warming = new ArrayList<>();
        List<String> awaitingVerdicts = new ArrayList<>();
        Map<String, ClusterConfig> clusters = new TreeMap<>();
        Set<String> known = new HashSet<>();
        bootstrap.clusters().forEach(c -> known.add(c.name()));
        resources.clusters().forEach((name, cluster) -> {
            Optional<ClusterConfig> ready = cluster.tls().isEmpty() ? Optional.of(cluster.config())
                    : upstreamTls(cluster.tls().get(), resources.secrets(), "Cluster '" + name + "'")
                            .map(tls -> cluster.config().withTls(Optional.of(tls)));
            if (ready.isPresent() && cluster.edsServiceName().isPresent()) {
                String service = cluster.edsServiceName().get();
                List<EndpointConfig> endpoints = resources.endpoints().get(service);
                if (endpoints == null && givenUp(ResourceType.ENDPOINT, service)) {
                    endpoints = List.of();
                }
                ready = endpoints == null ? Optional.empty() : Optional.of(ready.get().withEndpoints(endpoints));
            }
            if (ready.isPresent()) {
                clusters.put(name, ready.get());
                if (ready.get().healthCheck().isEmpty() || checked.contains(name)) {
                    known.add(name);
                } else {
                    awaitingVerdicts.add(name);
                    warming.add("Cluster '" + name + "' (first health check)");
                }
                return;
            }
            boolean secretsGivenUp = cluster.tls().isPresent()
                    && upstreamTls(cluster.tls().get(), resources.secrets(), name).isEmpty()
                    && givenUp(cluster.tls().get().names(), resources.secrets());
            if (!secretsGivenUp) {
                warming.add("Cluster '" + name + "'");
            }
            ClusterConfig previous = appliedClusters.get(name);
            if (previous != null) {
                clusters.put(name, previous);
                known.add(name);
            }
        });
        Map<String, ListenerConfig> listeners = new TreeMap<>();
        Map<String, ServedRoutes> served = new HashMap<>();
        resources.listeners().forEach((name, listener) -> {
            RouteTranslator.Served routes = routes(name, listener, resources, served);
            Optional<Optional<TlsConfig>> tls = listener.tls().isEmpty() ? Optional.of(Optional.empty())
                    : listenerTls(listener.tls().get(), resources.secrets(), "Listener '" + name + "'").map(Optional::of);
            if (routes != null && tls.isPresent() && known.containsAll(clusterNames(routes.routes()))) {
                listeners.put(name, listener.ready(routes, tls.get()));
                return;
            }
            boolean onlySecretsGivenUp = tls.isEmpty() && givenUp(listener.tls().get().names(), resources.secrets())
                    && routes != null && known.containsAll(clusterNames(routes.routes()));
            if (!onlySecretsGivenUp) {
                warming.add("Listener '" + name + "'");
            }
            // a cluster the served version names may have been removed: its routes answer 503 until new routes come, as in Envoy
            ListenerConfig previous = appliedListeners.get(name);
            if (previous != null) {
                listeners.put(name, previous);
            }
        });
        servedRoutes = served;
        List<ListenerConfig> allListeners = new ArrayList<>(bootstrap.listeners());
        allListeners.addAll(listeners.values());
        List<ClusterConfig> allClusters = new ArrayList<>(bootstrap.clusters());
        allClusters.addAll(clusters.values());
        return new Composition(bootstrap.with(allListeners, allClusters), listeners, clusters, List.copyOf(warming),
                List.copyOf(awaitingVerdicts));
    }

    /**
     * What {@code listener} serves: its inline routes, or those RDS sent resolved for its filters
     * (reused while neither changed: an endpoint push parses no routes); null while they have not
     * arrived, no routes once they were given up on.
     */
    private RouteTranslator.Served routes(String name, ListenerTranslator.Translated listener, XdsResources resources,
            Map<String, ServedRoutes> served) {
        if (listener.rdsName().isEmpty()) {
            return listener.inline();
        }
        RouteTranslator.Translated routes = resources.routes().get(listener.rdsName().get());
        if (routes == null) {
            return givenUp(ResourceType.ROUTE, listener.rdsName().get())
                    ? listener.serve(new RouteTranslator.Translated(new RouteConfig(List.of())), extensions) : null;
        }
        ServedRoutes before = servedRoutes.get(name);
        ServedRoutes now = before != null && before.listener() == listener && before.routes() == routes ? before
                : new ServedRoutes(listener, routes, listener.serve(routes, extensions));
        served.put(name, now);
        return now.served();
    }

    /** What a listener served with a route configuration, kept for as long as neither changes. */
    private record ServedRoutes(ListenerTranslator.Translated listener, RouteTranslator.Translated routes,
            RouteTranslator.Served served) {
    }

    /** A composer for another configuration file that remembers what this one served. */
    public ConfigComposer withBootstrap(GatewayConfig file) {
        ConfigComposer next = new ConfigComposer(file, secretFiles, extensions);
        next.appliedListeners = appliedListeners;
        next.appliedClusters = appliedClusters;
        next.checked = checked;
        next.givenUp = givenUp;
        next.servedRoutes = servedRoutes;
        return next;
    }

    /** Records what {@code composition} served, the versions kept while newer ones warm. */
    public void applied(Composition composition) {
        appliedListeners = new LinkedHashMap<>(composition.listeners());
        appliedClusters = new LinkedHashMap<>(composition.clusters());
        Set<String> stillChecked = new HashSet<>(checked);
        stillChecked.retainAll(composition.clusters().keySet());
        checked = stillChecked;
    }

    /** The hosts of {@code names}, served for the first time, had their first health check verdicts. */
    public void firstVerdicts(List<String> names) {
        Set<String> more = new HashSet<>(checked);
        more.addAll(names);
        checked = more;
    }

    /**
     * Sets the resources whose {@code initial_fetch_timeout} passed before they arrived (keys
     * {@code Kind/name}): they no longer hold warming. A missing route configuration then serves
     * no routes and missing endpoints no hosts, as in Envoy; a listener or cluster missing a secret
     * is not served, but does not hold the gateway's readiness either.
     */
    public void givenUp(Set<String> keys) {
        givenUp = Set.copyOf(keys);
    }

    private boolean givenUp(ResourceType type, String name) {
        return givenUp.contains(type.kind() + "/" + name);
    }

    /** Whether every secret of {@code names} that did not arrive was given up on. */
    private boolean givenUp(List<String> names, Map<String, TlsSecret> arrived) {
        return names.stream().filter(n -> !arrived.containsKey(n)).allMatch(n -> givenUp(ResourceType.SECRET, n));
    }

    /** A listener's TLS settings once the secrets it names arrived; empty while one is missing. */
    private Optional<TlsConfig> listenerTls(TransportSocketTranslator.ListenerSecrets tls, Map<String, TlsSecret> secrets,
            String at) {
        if (!secrets.keySet().containsAll(tls.names())) {
            return Optional.empty();
        }
        List<SniCertificateConfig> sni = new ArrayList<>();
        for (TransportSocketTranslator.SniSecret s : tls.sni()) {
            sni.add(new SniCertificateConfig(s.serverNames(), certificate(s.certificate(), secrets, at)));
        }
        CertificateFiles certificate = certificate(tls.certificate(), secrets, at);
        Optional<ClientAuthConfig> clientAuth = tls.validation().map(v -> new ClientAuthConfig(
                tls.requireClientCertificate(), trustedCa(v, secrets, at), List.of()));
        return Optional.of(new TlsConfig(certificate.certChainFile(), certificate.privateKeyFile(), tls.alpn(),
                tls.handshakeTimeout(), sni, clientAuth, TlsConfig.DEFAULT_RELOAD_INTERVAL,
                TlsConfig.DEFAULT_SESSION_TIMEOUT));
    }

    /** A cluster's TLS settings once the secrets it names arrived; empty while one is missing. */
    private Optional<UpstreamTlsConfig> upstreamTls(TransportSocketTranslator.ClusterSecrets tls,
            Map<String, TlsSecret> secrets, String at) {
        if (!secrets.keySet().containsAll(tls.names())) {
            return Optional.empty();
        }
        return Optional.of(new UpstreamTlsConfig(tls.sni(), tls.validation().map(v -> tls.files().containsKey(v)
                ? fileSecret(tls.files().get(v).trustedCa(), v, "validation_context", at) : trustedCa(v, secrets, at)),
                tls.certificate().map(c -> tls.files().containsKey(c)
                        ? fileSecret(tls.files().get(c).certificate(), c, "tls_certificate", at) : certificate(c, secrets, at)),
                tls.alpn(), tls.subjectAltNames(), tls.matchLabels()));
    }

    /** The files of file secret {@code name} where a secret of {@code kind} is needed. */
    private static <T> T fileSecret(Optional<T> files, String name, String kind, String at) {
        return files.orElseThrow(() -> new XdsRejection(at + ": sds_files secret '" + name + "' is not a " + kind
                + " (expected " + ("tls_certificate".equals(kind) ? "cert_chain_file and private_key_file" : "ca_file")
                + ")"));
    }

    private CertificateFiles certificate(String name, Map<String, TlsSecret> secrets, String at) {
        if (!secrets.get(name).isCertificate()) {
            throw new XdsRejection(at + ": secret '" + name + "' is a validation_context where a tls_certificate is"
                    + " needed");
        }
        return secretFiles.certificate(name);
    }

    private Path trustedCa(String name, Map<String, TlsSecret> secrets, String at) {
        if (!secrets.get(name).isValidationContext()) {
            throw new XdsRejection(at + ": secret '" + name + "' is a tls_certificate where a validation_context is"
                    + " needed");
        }
        return secretFiles.trustedCa(name);
    }

    /** Every cluster the routes of {@code routes} forward to, or their filters (a mirror's shadow) name. */
    static Set<String> clusterNames(RouteConfig routes) {
        Set<String> names = new HashSet<>();
        for (VirtualHostConfig host : routes.virtualHosts()) {
            for (RouteEntryConfig route : host.routes()) {
                route.filters().values().stream().map(StreamFilterConfig::settings)
                        .filter(ClusterReferences.class::isInstance)
                        .forEach(s -> names.addAll(((ClusterReferences) s).clusters()));
                route.forward().flatMap(ForwardActionConfig::cluster).ifPresent(names::add);
                route.forward().ifPresent(f -> f.weightedClusters().stream().map(WeightedClusterConfig::name)
                        .forEach(names::add));
            }
        }
        return names;
    }
}
