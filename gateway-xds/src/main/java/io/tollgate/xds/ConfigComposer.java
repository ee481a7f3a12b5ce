package io.tollgate.xds;

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
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.config.UpstreamTlsConfig;
import io.tollgate.core.config.VirtualHostConfig;
import io.tollgate.core.config.WeightedClusterConfig;
import java.nio.file.Path;
import java.util.ArrayList;
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
 */
final class ConfigComposer {

    private final GatewayConfig bootstrap;
    private final SecretFiles secretFiles;
    private Map<String, ListenerConfig> appliedListeners = Map.of();
    private Map<String, ClusterConfig> appliedClusters = Map.of();

    ConfigComposer(GatewayConfig bootstrap, SecretFiles secretFiles) {
        this.bootstrap = bootstrap;
        this.secretFiles = secretFiles;
    }

    /** What {@link #compose} built: the configuration and which dynamic resources are still warming. */
    record Composition(GatewayConfig config, Map<String, ListenerConfig> listeners, Map<String, ClusterConfig> clusters,
            List<String> warming) {
    }

    Composition compose(XdsResources resources) {
        List<String> warming = new ArrayList<>();
        Map<String, ClusterConfig> clusters = new TreeMap<>();
        resources.clusters().forEach((name, cluster) -> {
            Optional<ClusterConfig> ready = cluster.tls().isEmpty() ? Optional.of(cluster.config())
                    : upstreamTls(cluster.tls().get(), resources.secrets(), "Cluster '" + name + "'")
                            .map(tls -> cluster.config().withTls(Optional.of(tls)));
            if (ready.isPresent() && cluster.edsServiceName().isPresent()) {
                List<EndpointConfig> endpoints = resources.endpoints().get(cluster.edsServiceName().get());
                ready = endpoints == null ? Optional.empty() : Optional.of(ready.get().withEndpoints(endpoints));
            }
            if (ready.isPresent()) {
                clusters.put(name, ready.get());
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
            Optional<Optional<TlsConfig>> tls = listener.tls().isEmpty() ? Optional.of(Optional.empty())
                    : listenerTls(listener.tls().get(), resources.secrets(), "Listener '" + name + "'").map(Optional::of);
            if (routes != null && tls.isPresent() && known.containsAll(clusterNames(routes))) {
                listeners.put(name, listener.ready(routes, tls.get()));
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
        ConfigComposer next = new ConfigComposer(file, secretFiles);
        next.appliedListeners = appliedListeners;
        next.appliedClusters = appliedClusters;
        return next;
    }

    /** Records what {@code composition} served, the versions kept while newer ones warm. */
    void applied(Composition composition) {
        appliedListeners = new LinkedHashMap<>(composition.listeners());
        appliedClusters = new LinkedHashMap<>(composition.clusters());
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
                TlsConfig.DEFAULT_HANDSHAKE_TIMEOUT, sni, clientAuth, TlsConfig.DEFAULT_RELOAD_INTERVAL,
                TlsConfig.DEFAULT_SESSION_TIMEOUT));
    }

    /** A cluster's TLS settings once the secrets it names arrived; empty while one is missing. */
    private Optional<UpstreamTlsConfig> upstreamTls(TransportSocketTranslator.ClusterSecrets tls,
            Map<String, TlsSecret> secrets, String at) {
        if (!secrets.keySet().containsAll(tls.names())) {
            return Optional.empty();
        }
        return Optional.of(new UpstreamTlsConfig(tls.sni(), tls.validation().map(v -> trustedCa(v, secrets, at)),
                tls.certificate().map(c -> certificate(c, secrets, at)), tls.alpn()));
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
