package io.tollgate.core.config.read;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ConfigChecks;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.DiscoveryConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.core.config.RegistryConfig;
import io.tollgate.core.config.ServiceTemplateConfig;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the top-level {@code registries:} and each cluster's {@code discovery:} into a
 * {@link DiscoveryConfig}, for {@link ConfigLoader}.
 */
final class DiscoveryConfigLoader {

    /** Curator's default session timeout. */
    static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(60);
    /** Curator's default connection timeout. */
    static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(15);
    /** The version SOFARPC gives a service that names none. */
    private static final String SOFA_DEFAULT_VERSION = "1.0";
    private static final Map<ProviderQueryConfig.Kind, List<String>> PROTOCOLS = Map.of(
            ProviderQueryConfig.Kind.DUBBO, List.of("dubbo"), ProviderQueryConfig.Kind.SOFA, List.of("bolt"));

    private DiscoveryConfigLoader() {
    }

    /** The registries of {@code root} and the queries of its {@code clusters}, already read. */
    static DiscoveryConfig discovery(ConfigNode root, List<ClusterConfig> clusters) {
        List<RegistryConfig> registries = root.list("registries", DiscoveryConfigLoader::registry);
        ConfigChecks.unique(root.child("registries"), registries.stream().map(RegistryConfig::name).toList(), "name");
        Map<String, ProviderQueryConfig> queries = new HashMap<>();
        Map<String, ServiceTemplateConfig> templates = new HashMap<>();
        Map<String, ClusterConfig> byName = new HashMap<>();
        clusters.forEach(c -> byName.putIfAbsent(c.name(), c));
        List<ConfigNode> nodes = root.has("clusters") ? root.list("clusters", n -> n) : List.of();
        for (ConfigNode cluster : nodes) {
            ClusterConfig config = byName.get(cluster.string("name", ""));
            // A cluster that could not be read reported its own errors; its discovery is not read.
            if (config != null && cluster.has("discovery")) {
                cluster.independent(() -> {
                    clusterDiscovery(cluster, config, registries, queries, templates);
                    return config;
                }, config);
            }
        }
        return new DiscoveryConfig(registries, queries, templates);
    }

    /** Reads the {@code discovery} of one cluster into {@code queries} or {@code templates}. */
    private static void clusterDiscovery(ConfigNode cluster, ClusterConfig config, List<RegistryConfig> registries,
            Map<String, ProviderQueryConfig> queries, Map<String, ServiceTemplateConfig> templates) {
        if (!config.endpoints().isEmpty()) {
            throw cluster.child("endpoints").error("a cluster with discovery takes its hosts from the registry"
                    + " (expected no endpoints)");
        }
        ConfigNode n = cluster.child("discovery");
        n.allowOnly(Set.of("registry", "dubbo", "sofa", "per_service", "unused_timeout"));
        String registry = n.string("registry");
        if (registries.stream().noneMatch(r -> r.name().equals(registry))) {
            throw n.child("registry").error("unknown registry '" + registry + "' (expected one of "
                    + registries.stream().map(RegistryConfig::name).toList() + ")");
        }
        if (n.has("per_service")) {
            templates.put(config.name(), template(n, registry));
        } else {
            queries.put(config.name(), query(n, registry));
        }
    }

    private static RegistryConfig registry(ConfigNode n) {
        String type = n.string("type");
        if (RegistryConfig.NACOS.equals(type)) {
            return NacosRegistryReader.registry(n);
        }
        n.allowOnly(Set.of("name", "type", "ensemble", "root", "session_timeout", "connection_timeout", "auth"));
        if (!RegistryConfig.ZOOKEEPER.equals(type)) {
            throw n.child("type").error("unknown registry type '" + type + "' (expected " + RegistryConfig.ZOOKEEPER
                    + " or " + RegistryConfig.NACOS + ")");
        }
        String root = n.string("root", "/");
        if (!root.startsWith("/")) {
            throw n.child("root").error("'" + root + "' (expected an absolute path, / for none)");
        }
        return new RegistryConfig(n.string("name"), type, n.string("ensemble"), root,
                n.positiveDuration("session_timeout", DEFAULT_SESSION_TIMEOUT),
                n.positiveDuration("connection_timeout", DEFAULT_CONNECTION_TIMEOUT),
                n.optional("auth").map(a -> {
                    a.allowOnly(Set.of("username", "password"));
                    return new RegistryConfig.DigestAuth(a.string("username"), a.string("password"));
                }));
    }

    private static ServiceTemplateConfig template(ConfigNode n, String registry) {
        if (n.has("dubbo") || n.has("sofa")) {
            throw n.error("per_service takes each request's own service: expected no dubbo or sofa service");
        }
        String kind = n.string("per_service");
        for (ProviderQueryConfig.Kind k : ProviderQueryConfig.Kind.values()) {
            if (k.configName().equals(kind)) {
                return new ServiceTemplateConfig(registry, k,
                        n.positiveDuration("unused_timeout", ServiceTemplateConfig.DEFAULT_UNUSED_TIMEOUT));
            }
        }
        throw n.child("per_service").error("'" + kind + "' (expected dubbo or sofa)");
    }

    private static ProviderQueryConfig query(ConfigNode n, String registry) {
        if (n.has("unused_timeout")) {
            throw n.child("unused_timeout").error("only a per_service cluster is dropped when unused");
        }
        if (n.has("dubbo") == n.has("sofa")) {
            throw n.error("expected exactly one of dubbo, sofa or per_service");
        }
        ProviderQueryConfig.Kind kind = n.has("dubbo") ? ProviderQueryConfig.Kind.DUBBO : ProviderQueryConfig.Kind.SOFA;
        ConfigNode service = n.child(kind.configName());
        if (kind == ProviderQueryConfig.Kind.DUBBO) {
            service.allowOnly(Set.of("interface", "group", "version", "protocols"));
        } else {
            service.allowOnly(Set.of("interface", "version", "unique_id", "protocols"));
        }
        List<String> protocols = service.list("protocols", ConfigNode::asString);
        String version = service.string("version", kind == ProviderQueryConfig.Kind.SOFA ? SOFA_DEFAULT_VERSION : "");
        return new ProviderQueryConfig(registry, kind, service.string("interface"),
                service.string("group", ""), version, service.string("unique_id", ""),
                protocols.isEmpty() ? PROTOCOLS.get(kind) : protocols);
    }
}
