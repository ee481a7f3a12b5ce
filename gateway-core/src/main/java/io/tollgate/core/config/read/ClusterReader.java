package io.tollgate.core.config.read;

import static io.tollgate.core.config.ConfigChecks.enumValue;
import static io.tollgate.core.config.ConfigChecks.headerName;
import static io.tollgate.core.config.ConfigChecks.priority;
import static io.tollgate.core.config.ConfigChecks.unique;

import io.tollgate.core.config.CircuitBreakerThresholdsConfig;
import io.tollgate.core.config.CircuitBreakersConfig;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ConfigChecks;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.core.config.HttpHealthCheckConfig;
import io.tollgate.core.config.LoadBalancingConfig;
import io.tollgate.core.config.OutlierDetectionConfig;
import io.tollgate.core.config.RetryBudgetConfig;
import io.tollgate.core.config.RoutingPriority;
import io.tollgate.core.config.SubsetLbConfig;
import io.tollgate.core.config.SubsetSelectorConfig;
import io.tollgate.core.config.UpstreamProxyProtocol;
import io.tollgate.core.extension.ExtensionFactory;
import io.tollgate.core.extension.ExtensionRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a cluster: its endpoints, load-balancing policy and health checker (extensions found by
 * name, each reading its own settings), outlier detection, subsets, circuit breakers, and the
 * TLS, PROXY protocol and DNS parts their own readers handle. A cluster from xDS is read by the
 * same rules.
 */
final class ClusterReader {

    /** The keys of a cluster beside those its load-balancing policies read. */
    private static final Set<String> CLUSTER_KEYS = union(Set.of("name", "lb_policy", "endpoints", "connect_timeout",
            "max_connections_per_host", "max_pending_requests", "idle_timeout", "connections_per_host",
            "heartbeat_interval", "health_check", "outlier_detection", "panic_threshold_percent", "subset_lb_config",
            "protocol", "circuit_breakers", "tls", "discovery", "proxy_protocol", OriginalDstReader.KEY),
            DnsConfigLoader.KEYS);
    /** The keys of a health check beside those its checker reads. */
    private static final Set<String> HEALTH_CHECK_KEYS = Set.of("type", "interval", "timeout", "jitter",
            "healthy_threshold", "unhealthy_threshold");
    private static final List<String> UPSTREAM_HTTP_PROTOCOLS = List.of(ClusterConfig.H2, ClusterConfig.HTTP1);
    /** Subset selectors are matched by a bit set of their keys in one {@code long}. */
    private static final int MAX_SUBSET_KEYS = 64;

    private ClusterReader() {
    }

    static ClusterConfig cluster(ConfigNode n, ExtensionRegistry extensions) {
        n.allowOnly(withExtensionKeys(CLUSTER_KEYS, extensions, LoadBalancingConfig.class));
        String protocol = n.string("protocol", ClusterConfig.HTTP1);
        if (!UPSTREAM_HTTP_PROTOCOLS.contains(protocol)) {
            throw n.child("protocol").error("unknown protocol '" + protocol + "' (expected one of " + UPSTREAM_HTTP_PROTOCOLS + ")");
        }
        ExtensionFactory<LoadBalancingConfig> lb = extension(extensions, LoadBalancingConfig.class, n.child("lb_policy"),
                n.string("lb_policy", "round_robin"), "policy");
        List<EndpointConfig> endpoints = n.list("endpoints", e -> {
            e.allowOnly(Set.of("address", "port", "weight", "labels"));
            return new EndpointConfig(e.string("address"), (int) e.required("port").asLong(1, 65535),
                    e.integer("weight", 1, 1, EndpointConfig.MAX_WEIGHT), e.stringMap("labels"));
        });
        unique(n.child("endpoints"), endpoints.stream().map(e -> e.address() + ":" + e.port()).toList(), "address:port");
        return new ClusterConfig(n.string("name"), lb.name(), endpoints,
                n.positiveDuration("connect_timeout", Duration.ofSeconds(5)),
                n.integer("max_connections_per_host", 1024, 1, 1_000_000),
                n.integer("max_pending_requests", 1024, 0, 1_000_000),
                n.positiveDuration("idle_timeout", Duration.ofSeconds(50)),
                n.integer("connections_per_host", ClusterConfig.DEFAULT_CONNECTIONS_PER_HOST, 1, 64),
                n.positiveDuration("heartbeat_interval", ClusterConfig.DEFAULT_HEARTBEAT_INTERVAL),
                n.optional("health_check").map(h -> healthCheck(h, extensions)),
                n.optional("outlier_detection").map(ClusterReader::outlierDetection),
                n.integer("panic_threshold_percent", ClusterConfig.DEFAULT_PANIC_THRESHOLD_PERCENT, 0, 100),
                n.optional("subset_lb_config").map(ClusterReader::subsetLbConfig),
                protocol,
                n.optional("circuit_breakers").map(ClusterReader::circuitBreakers).orElse(CircuitBreakersConfig.DEFAULTS),
                loadBalancing(n, lb, extensions),
                TlsReader.upstream(n, protocol),
                UpstreamProxyProtocol.parse(n),
                DnsConfigLoader.dns(n, endpoints),
                OriginalDstReader.originalDst(n));
    }

    /** The settings {@code lb_policy} reads; a setting only another policy reads is an error, not silently ignored. */
    private static LoadBalancingConfig loadBalancing(ConfigNode n, ExtensionFactory<LoadBalancingConfig> lb,
            ExtensionRegistry extensions) {
        rejectKeysOfOthers(n, "lb_policy", lb, extensions);
        return lb.parse(n, LoadBalancingConfig.DEFAULTS);
    }

    private static HealthCheckConfig healthCheck(ConfigNode n, ExtensionRegistry extensions) {
        n.allowOnly(withExtensionKeys(HEALTH_CHECK_KEYS, extensions, HealthCheckConfig.class));
        ExtensionFactory<HealthCheckConfig> checker = extension(extensions, HealthCheckConfig.class, n.child("type"),
                n.string("type"), "type");
        rejectKeysOfOthers(n, "type", checker, extensions);
        return checker.parse(n, new HealthCheckConfig(checker.name(),
                n.positiveDuration("interval", Duration.ofSeconds(10)),
                n.positiveDuration("timeout", Duration.ofSeconds(1)),
                n.duration("jitter", Duration.ZERO),
                n.integer("healthy_threshold", 2, 1, 1000),
                n.integer("unhealthy_threshold", 3, 1, 1000),
                HttpHealthCheckConfig.DEFAULTS));
    }

    /** The extension of kind {@code type} named {@code name}; an unknown name fails at {@code at}, listing all. */
    private static <C> ExtensionFactory<C> extension(ExtensionRegistry extensions, Class<C> type, ConfigNode at,
            String name, String noun) {
        return extensions.find(type, name).orElseThrow(() -> at.error("unknown " + noun + " '" + name
                + "' (expected one of " + extensions.names(type) + ")"));
    }

    /** {@code own}, the keys a node has for itself, and the keys extensions of kind {@code type} read there. */
    private static Set<String> withExtensionKeys(Set<String> own, ExtensionRegistry extensions, Class<?> type) {
        Set<String> keys = new HashSet<>(own);
        for (String key : extensions.keys(type)) {
            if (!keys.add(key)) {
                throw new IllegalStateException(type.getSimpleName() + " extensions read '" + key
                        + "', a key the configuration itself reads there");
            }
        }
        return keys;
    }

    /** Fails on a key of {@code n} that extensions of {@code chosen}'s kind read, but not {@code chosen}. */
    private static void rejectKeysOfOthers(ConfigNode n, String selector, ExtensionFactory<?> chosen,
            ExtensionRegistry extensions) {
        Class<?> type = chosen.configType();
        for (String key : extensions.keys(type)) {
            if (n.has(key) && !chosen.keys().contains(key)) {
                List<String> readers = extensions.names(type).stream()
                        .filter(name -> extensions.find(type, name).orElseThrow().keys().contains(key)).toList();
                throw n.child(key).error("only applies to " + selector + " " + String.join(" or ", readers) + " ("
                        + selector + " is " + chosen.name() + ")");
            }
        }
    }

    private static OutlierDetectionConfig outlierDetection(ConfigNode n) {
        n.allowOnly(Set.of("consecutive_5xx", "consecutive_gateway_failure", "consecutive_connect_failure",
                "interval", "base_ejection_time", "max_ejection_time", "max_ejection_percent"));
        return n.build(() -> new OutlierDetectionConfig(
                n.integer("consecutive_5xx", 5, 0, 1_000_000),
                n.integer("consecutive_gateway_failure", 0, 0, 1_000_000),
                n.integer("consecutive_connect_failure", 0, 0, 1_000_000),
                n.positiveDuration("interval", Duration.ofSeconds(10)),
                n.positiveDuration("base_ejection_time", Duration.ofSeconds(30)),
                n.positiveDuration("max_ejection_time", Duration.ofSeconds(300)),
                n.integer("max_ejection_percent", 10, 0, 100)));
    }

    private static SubsetLbConfig subsetLbConfig(ConfigNode n) {
        n.allowOnly(Set.of("fallback_policy", "default_subset", "subset_selectors", "header_prefix"));
        List<SubsetSelectorConfig> selectors = n.list("subset_selectors", ClusterReader::subsetSelector);
        if (selectors.isEmpty()) {
            throw n.child("subset_selectors").error("must list at least one selector");
        }
        unique(n.child("subset_selectors"), selectors.stream().map(s -> String.join(",", s.keys())).toList(), "keys");
        long distinctKeys = selectors.stream().flatMap(s -> s.keys().stream()).distinct().count();
        if (distinctKeys > MAX_SUBSET_KEYS) {
            throw n.child("subset_selectors").error(distinctKeys + " distinct keys (expected at most " + MAX_SUBSET_KEYS + ")");
        }
        for (int i = 0; i < selectors.size(); i++) {
            List<String> fallbackKeys = selectors.get(i).fallbackKeysSubset();
            boolean selected = fallbackKeys.isEmpty() || selectors.stream().anyMatch(s -> s.keys().equals(fallbackKeys));
            if (!selected) {
                throw n.child("subset_selectors").element(i).child("fallback_keys_subset")
                        .error(fallbackKeys + " (expected the keys of another selector)");
            }
        }
        return new SubsetLbConfig(
                enumValue(n, "fallback_policy", SubsetLbConfig.FallbackPolicy.NO_FALLBACK),
                n.stringMap("default_subset"),
                selectors,
                n.optionalString("header_prefix").map(p -> headerName(n.child("header_prefix"), p)));
    }

    private static SubsetSelectorConfig subsetSelector(ConfigNode n) {
        n.allowOnly(Set.of("keys", "fallback_policy", "fallback_keys_subset"));
        List<String> keys = sortedKeys(n.child("keys"), n.list("keys", ConfigNode::asString));
        if (keys.isEmpty()) {
            throw n.child("keys").error("must list at least one key");
        }
        SubsetSelectorConfig.Fallback fallback = enumValue(n, "fallback_policy", SubsetSelectorConfig.Fallback.NOT_DEFINED);
        List<String> fallbackKeys = sortedKeys(n.child("fallback_keys_subset"),
                n.list("fallback_keys_subset", ConfigNode::asString));
        if ((fallback == SubsetSelectorConfig.Fallback.KEYS_SUBSET) == fallbackKeys.isEmpty()) {
            throw n.error("fallback_keys_subset is needed exactly when fallback_policy is KEYS_SUBSET");
        }
        if (!fallbackKeys.isEmpty() && (fallbackKeys.size() >= keys.size() || !keys.containsAll(fallbackKeys))) {
            throw n.child("fallback_keys_subset").error(fallbackKeys + " (expected a smaller part of " + keys + ")");
        }
        return new SubsetSelectorConfig(keys, fallback, fallbackKeys);
    }

    /** Sorts label keys, rejecting empty and repeated ones. */
    private static List<String> sortedKeys(ConfigNode list, List<String> keys) {
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i).isEmpty()) {
                throw list.element(i).error("'' is not a label key");
            }
        }
        unique(list, keys, "key");
        return keys.stream().sorted().toList();
    }

    /**
     * Envoy's form, a list of {@code thresholds} each with its {@code priority}, or the short form:
     * the fields of one set of thresholds, for the default priority. A priority not listed keeps
     * Envoy's defaults.
     */
    private static CircuitBreakersConfig circuitBreakers(ConfigNode n) {
        if (!n.has("thresholds")) {
            return new CircuitBreakersConfig(thresholds(n, Set.of()), CircuitBreakerThresholdsConfig.DEFAULTS);
        }
        n.allowOnly(Set.of("thresholds"));
        List<PriorityThresholds> listed = n.list("thresholds",
                t -> new PriorityThresholds(priority(t, "priority"), thresholds(t, Set.of("priority"))));
        unique(n.child("thresholds"), listed.stream().map(t -> t.priority().configName()).toList(), "priority");
        Map<RoutingPriority, CircuitBreakerThresholdsConfig> byPriority = new EnumMap<>(RoutingPriority.class);
        listed.forEach(t -> byPriority.put(t.priority(), t.thresholds()));
        return new CircuitBreakersConfig(
                byPriority.getOrDefault(RoutingPriority.DEFAULT, CircuitBreakerThresholdsConfig.DEFAULTS),
                byPriority.getOrDefault(RoutingPriority.HIGH, CircuitBreakerThresholdsConfig.DEFAULTS));
    }

    /** One element of a {@code thresholds} list. */
    private record PriorityThresholds(RoutingPriority priority, CircuitBreakerThresholdsConfig thresholds) {
    }

    /** One set of thresholds; {@code extraKeys} are allowed beside the limits and read by the caller. */
    private static CircuitBreakerThresholdsConfig thresholds(ConfigNode n, Set<String> extraKeys) {
        Set<String> allowed = new HashSet<>(Set.of("max_connections", "max_pending_requests", "max_requests",
                "max_retries", "retry_budget"));
        allowed.addAll(extraKeys);
        n.allowOnly(allowed);
        CircuitBreakerThresholdsConfig d = CircuitBreakerThresholdsConfig.DEFAULTS;
        return new CircuitBreakerThresholdsConfig(
                n.integer("max_connections", d.maxConnections(), 1, 1_000_000_000),
                n.integer("max_pending_requests", d.maxPendingRequests(), 0, 1_000_000_000),
                n.integer("max_requests", d.maxRequests(), 1, 1_000_000_000),
                n.integer("max_retries", d.maxRetries(), 0, 1_000_000_000),
                n.optional("retry_budget").map(b -> {
                    b.allowOnly(Set.of("budget_percent", "min_retry_concurrency"));
                    RetryBudgetConfig budget = RetryBudgetConfig.DEFAULTS;
                    return new RetryBudgetConfig(b.integer("budget_percent", budget.budgetPercent(), 0, 100),
                            b.integer("min_retry_concurrency", budget.minRetryConcurrency(), 0, 1_000_000_000));
                }));
    }


    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
