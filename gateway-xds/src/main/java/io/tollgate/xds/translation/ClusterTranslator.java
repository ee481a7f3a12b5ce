package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.OutlierDetection;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.HealthCheck;
import io.envoyproxy.envoy.config.core.v3.TransportSocket;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import io.envoyproxy.envoy.type.v3.Int64Range;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.config.XdsConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns an Envoy {@code Cluster} into the gateway's cluster, through the same checks as a
 * cluster of the configuration file. STATIC clusters carry their endpoints; STRICT_DNS and
 * LOGICAL_DNS clusters the names the gateway resolves ({@link DnsClusterTranslator}); EDS clusters
 * get theirs from a {@code ClusterLoadAssignment} later.
 */
final class ClusterTranslator {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String HTTP_OPTIONS = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions";
    private static final Map<Cluster.LbPolicy, String> POLICIES = Map.of(
            Cluster.LbPolicy.ROUND_ROBIN, "round_robin", Cluster.LbPolicy.RANDOM, "random",
            Cluster.LbPolicy.LEAST_REQUEST, "least_request", Cluster.LbPolicy.RING_HASH, "ring_hash",
            Cluster.LbPolicy.MAGLEV, "maglev");

    private static final String RAW_BUFFER = "envoy.transport_sockets.raw_buffer";
    private static final String RAW_BUFFER_TYPE =
            "type.googleapis.com/envoy.extensions.transport_sockets.raw_buffer.v3.RawBuffer";

    private final ExtensionRegistry extensions;
    private final Map<String, XdsConfig.FileSecret> sdsFiles;

    /** @param sdsFiles the secrets of SDS sources other than ADS, from the bootstrap's {@code sds_files} */
    ClusterTranslator(ExtensionRegistry extensions, Map<String, XdsConfig.FileSecret> sdsFiles) {
        this.extensions = extensions;
        this.sdsFiles = Map.copyOf(sdsFiles);
    }

    /** A cluster as received: its settings validated, and where its endpoints come from. */
    record Translated(ClusterConfig config, Optional<String> edsServiceName,
            Optional<TransportSocketTranslator.ClusterSecrets> tls, Duration edsFetchTimeout) {

        /** A cluster in cleartext, its endpoints waited for as long as Envoy waits by default. */
        Translated(ClusterConfig config, Optional<String> edsServiceName) {
            this(config, edsServiceName, Optional.empty(), DEFAULT_INITIAL_FETCH_TIMEOUT);
        }
    }

    /** The largest circuit breaker limit the configuration takes. */
    private static final long MAX_LIMIT = 1_000_000_000L;

    /** Envoy's default {@code initial_fetch_timeout}. */
    static final Duration DEFAULT_INITIAL_FETCH_TIMEOUT = Duration.ofSeconds(15);

    Translated translate(Cluster cluster) {
        String at = "Cluster '" + cluster.getName() + "'";
        Set<String> fields = new HashSet<>(Set.of("name", "type", "eds_cluster_config", "connect_timeout", "lb_policy",
                "load_assignment", "health_checks", "outlier_detection", "circuit_breakers", "lb_subset_config",
                "ring_hash_lb_config", "maglev_lb_config", "typed_extension_protocol_options", "http2_protocol_options",
                "common_lb_config", "transport_socket", "transport_socket_matches", "alt_stat_name", "metadata", "filters"));
        if (DnsClusterTranslator.isDns(cluster)) {
            fields.addAll(DnsClusterTranslator.FIELDS);
        }
        Fields.allowOnly(cluster, at, fields);
        // alt_stat_name names the cluster in Envoy's stats only; the gateway's metrics tag the cluster's name.
        if (cluster.hasMetadata()) {
            IstioExtensions.telemetryMetadata(cluster.getMetadata(), at + ".metadata");
        }
        IstioExtensions.clusterFilters(cluster.getFiltersList(), at + ".filters");
        ObjectNode tree = NODES.objectNode().put("name", cluster.getName());
        Optional<String> eds = switch (cluster.getType()) {
            case STATIC -> Optional.empty();
            case STRICT_DNS, LOGICAL_DNS -> {
                DnsClusterTranslator.translate(cluster, at, tree);
                yield Optional.empty();
            }
            case EDS -> {
                if (cluster.hasLoadAssignment()) {
                    throw new XdsRejection(at + ".load_assignment: not supported with type EDS (endpoints come from EDS)");
                }
                yield Optional.of(edsServiceName(cluster, at));
            }
            default -> throw new XdsRejection(at + ".type: " + cluster.getType() + " not supported (supported: STATIC, STRICT_DNS, LOGICAL_DNS, EDS)");
        };
        if (cluster.hasConnectTimeout()) {
            tree.put("connect_timeout", Fields.duration(cluster.getConnectTimeout()));
        }
        String policy = POLICIES.get(cluster.getLbPolicy());
        if (policy == null) {
            throw new XdsRejection(at + ".lb_policy: " + cluster.getLbPolicy() + " not supported (supported: "
                    + POLICIES.keySet().stream().map(Enum::name).sorted().toList() + ")");
        }
        tree.put("lb_policy", policy);
        ringAndTable(cluster, at, tree);
        if (cluster.getHealthChecksCount() > 1) {
            throw new XdsRejection(at + ".health_checks: " + cluster.getHealthChecksCount() + " checks (supported: one)");
        }
        if (cluster.getHealthChecksCount() == 1) {
            tree.set("health_check", healthCheck(cluster.getHealthChecks(0), at + ".health_checks[0]"));
        }
        if (cluster.hasOutlierDetection()) {
            tree.set("outlier_detection", outlierDetection(cluster.getOutlierDetection(), at + ".outlier_detection"));
        }
        if (cluster.hasCircuitBreakers()) {
            tree.set("circuit_breakers", circuitBreakers(cluster.getCircuitBreakers(), at + ".circuit_breakers"));
        }
        if (cluster.hasLbSubsetConfig()) {
            tree.set("subset_lb_config", SubsetTranslator.subsetConfig(cluster.getLbSubsetConfig(), at + ".lb_subset_config"));
        }
        if (cluster.hasCommonLbConfig()) {
            Fields.allowOnly(cluster.getCommonLbConfig(), at + ".common_lb_config", Set.of("healthy_panic_threshold"));
            if (cluster.getCommonLbConfig().hasHealthyPanicThreshold()) {
                tree.put("panic_threshold_percent",
                        Math.round(cluster.getCommonLbConfig().getHealthyPanicThreshold().getValue()));
            }
        }
        boolean h2 = http2(cluster, at);
        if (h2) {
            tree.put("protocol", ClusterConfig.H2);
        }
        ClusterConfig config;
        try {
            config = ConfigLoader.cluster(tree, "", extensions);
        } catch (ConfigException | IllegalArgumentException e) {
            throw new XdsRejection(at + ": " + e.getMessage());
        }
        if (eds.isEmpty() && !DnsClusterTranslator.isDns(cluster)) {
            config = config.withEndpoints(EndpointTranslator.endpoints(cluster.getLoadAssignment(), at + ".load_assignment"));
        }
        Optional<TransportSocketTranslator.ClusterSecrets> tls = tls(cluster, at, h2);
        return new Translated(config, eds, tls, eds.isEmpty() ? Duration.ZERO
                : initialFetchTimeout(cluster.getEdsClusterConfig().getEdsConfig()));
    }

    /**
     * The cluster's TLS: its {@code transport_socket}, or its {@code transport_socket_matches} in
     * the shape Istio gives them: TLS to the hosts whose {@code envoy.transport_socket_match}
     * metadata has the labels of one match ({@code tlsMode: istio}), then cleartext for the rest
     * (an empty match with a raw buffer).
     */
    private Optional<TransportSocketTranslator.ClusterSecrets> tls(Cluster cluster, String at, boolean h2) {
        if (cluster.getTransportSocketMatchesCount() == 0) {
            return cluster.hasTransportSocket() && !isRawBuffer(cluster.getTransportSocket(), at + ".transport_socket")
                    ? Optional.of(TransportSocketTranslator.upstream(cluster.getTransportSocket(),
                            at + ".transport_socket", sdsFiles, h2))
                    : Optional.empty();
        }
        if (cluster.hasTransportSocket() && !isRawBuffer(cluster.getTransportSocket(), at + ".transport_socket")) {
            throw new XdsRejection(at + ".transport_socket: TLS beside transport_socket_matches not supported"
                    + " (supported: TLS in one match, cleartext for the other hosts)");
        }
        TransportSocketTranslator.ClusterSecrets tls = null;
        int count = cluster.getTransportSocketMatchesCount();
        for (int i = 0; i < count; i++) {
            Cluster.TransportSocketMatch match = cluster.getTransportSocketMatches(i);
            String where = at + ".transport_socket_matches[" + i + "]";
            Fields.allowOnly(match, where, Set.of("name", "match", "transport_socket"));
            if (isRawBuffer(match.getTransportSocket(), where + ".transport_socket")) {
                if (match.getMatch().getFieldsCount() > 0 || i != count - 1) {
                    throw new XdsRejection(where + ": a cleartext match with labels, or not last, not supported"
                            + " (supported: the last match, empty, in cleartext)");
                }
                continue;
            }
            if (tls != null) {
                throw new XdsRejection(where + ": a second TLS match not supported (supported: one)");
            }
            tls = TransportSocketTranslator.upstream(match.getTransportSocket(), where + ".transport_socket", sdsFiles,
                    h2).matching(SubsetTranslator.labels(match.getMatch(), where + ".match"));
        }
        return Optional.ofNullable(tls);
    }

    /** Whether {@code socket} is Envoy's cleartext transport socket. */
    private static boolean isRawBuffer(TransportSocket socket, String at) {
        Fields.allowOnly(socket, at, Set.of("name", "typed_config"));
        return socket.getName().equals(RAW_BUFFER)
                && (!socket.hasTypedConfig() || socket.getTypedConfig().getTypeUrl().equals(RAW_BUFFER_TYPE));
    }

    private static String edsServiceName(Cluster cluster, String at) {
        Cluster.EdsClusterConfig eds = cluster.getEdsClusterConfig();
        Fields.allowOnly(eds, at + ".eds_cluster_config", Set.of("eds_config", "service_name"));
        requireAds(eds.getEdsConfig(), at + ".eds_cluster_config.eds_config");
        return eds.getServiceName().isEmpty() ? cluster.getName() : eds.getServiceName();
    }

    /** Only the ADS stream delivers resources: a config source naming anything else is refused. */
    static void requireAds(ConfigSource source, String at) {
        Fields.allowOnly(source, at, Set.of("ads", "resource_api_version", "initial_fetch_timeout"));
        if (!source.hasAds()) {
            throw new XdsRejection(at + ": must be ads (the gateway has one ADS stream)");
        }
        if (source.getResourceApiVersion() == ApiVersion.V2) {
            throw new XdsRejection(at + ".resource_api_version: V2 not supported (supported: V3, AUTO)");
        }
    }

    /**
     * How long a resource of {@code source} is waited for before it stops holding the gateway's
     * initialization (and a listener's or cluster's warming): its {@code initial_fetch_timeout},
     * Envoy's 15 s when unset; zero waits for ever.
     */
    static Duration initialFetchTimeout(ConfigSource source) {
        if (!source.hasInitialFetchTimeout()) {
            return DEFAULT_INITIAL_FETCH_TIMEOUT;
        }
        com.google.protobuf.Duration timeout = source.getInitialFetchTimeout();
        return Duration.ofSeconds(timeout.getSeconds(), timeout.getNanos());
    }

    private static void ringAndTable(Cluster cluster, String at, ObjectNode tree) {
        if (cluster.hasRingHashLbConfig()) {
            Cluster.RingHashLbConfig ring = cluster.getRingHashLbConfig();
            Fields.allowOnly(ring, at + ".ring_hash_lb_config", Set.of("minimum_ring_size", "maximum_ring_size"));
            ObjectNode sizes = tree.putObject("ring_hash_lb_config");
            if (ring.hasMinimumRingSize()) {
                sizes.put("minimum_ring_size", ring.getMinimumRingSize().getValue());
            }
            if (ring.hasMaximumRingSize()) {
                sizes.put("maximum_ring_size", ring.getMaximumRingSize().getValue());
            }
        }
        if (cluster.hasMaglevLbConfig()) {
            Fields.allowOnly(cluster.getMaglevLbConfig(), at + ".maglev_lb_config", Set.of("table_size"));
            tree.putObject("maglev_lb_config").put("table_size", cluster.getMaglevLbConfig().getTableSize().getValue());
        }
    }

    private static ObjectNode healthCheck(HealthCheck check, String at) {
        Fields.allowOnly(check, at, Set.of("timeout", "interval", "interval_jitter", "healthy_threshold",
                "unhealthy_threshold", "tcp_health_check", "http_health_check"));
        ObjectNode tree = NODES.objectNode()
                .put("timeout", Fields.duration(check.getTimeout()))
                .put("interval", Fields.duration(check.getInterval()))
                .put("healthy_threshold", check.getHealthyThreshold().getValue())
                .put("unhealthy_threshold", check.getUnhealthyThreshold().getValue());
        if (check.hasIntervalJitter()) {
            tree.put("jitter", Fields.duration(check.getIntervalJitter()));
        }
        if (check.hasTcpHealthCheck()) {
            Fields.allowOnly(check.getTcpHealthCheck(), at + ".tcp_health_check", Set.of());
            tree.put("type", "tcp");
        } else if (check.hasHttpHealthCheck()) {
            HealthCheck.HttpHealthCheck http = check.getHttpHealthCheck();
            Fields.allowOnly(http, at + ".http_health_check", Set.of("path", "expected_statuses"));
            tree.put("type", "http");
            ObjectNode settings = tree.putObject("http").put("path", http.getPath().isEmpty() ? "/" : http.getPath());
            if (http.getExpectedStatusesCount() > 0) {
                ArrayNode statuses = settings.putArray("expected_statuses");
                for (Int64Range range : http.getExpectedStatusesList()) {
                    statuses.add(range.getStart() + "-" + (range.getEnd() - 1)); // Envoy's end is exclusive
                }
            }
        } else {
            throw new XdsRejection(at + ": needs tcp_health_check or http_health_check");
        }
        return tree;
    }

    private static ObjectNode outlierDetection(OutlierDetection outlier, String at) {
        Fields.allowOnly(outlier, at, Set.of("consecutive_5xx", "consecutive_gateway_failure", "interval",
                "base_ejection_time", "max_ejection_time", "max_ejection_percent"));
        ObjectNode tree = NODES.objectNode();
        if (outlier.hasConsecutive5Xx()) {
            tree.put("consecutive_5xx", outlier.getConsecutive5Xx().getValue());
        }
        if (outlier.hasConsecutiveGatewayFailure()) {
            tree.put("consecutive_gateway_failure", outlier.getConsecutiveGatewayFailure().getValue());
        }
        if (outlier.hasInterval()) {
            tree.put("interval", Fields.duration(outlier.getInterval()));
        }
        if (outlier.hasBaseEjectionTime()) {
            tree.put("base_ejection_time", Fields.duration(outlier.getBaseEjectionTime()));
        }
        if (outlier.hasMaxEjectionTime()) {
            tree.put("max_ejection_time", Fields.duration(outlier.getMaxEjectionTime()));
        }
        if (outlier.hasMaxEjectionPercent()) {
            tree.put("max_ejection_percent", outlier.getMaxEjectionPercent().getValue());
        }
        return tree;
    }

    private static ObjectNode circuitBreakers(CircuitBreakers breakers, String at) {
        Fields.allowOnly(breakers, at, Set.of("thresholds"));
        ObjectNode tree = NODES.objectNode();
        ArrayNode list = tree.putArray("thresholds");
        for (int i = 0; i < breakers.getThresholdsCount(); i++) {
            CircuitBreakers.Thresholds t = breakers.getThresholds(i);
            String where = at + ".thresholds[" + i + "]";
            // track_remaining only adds Envoy's remaining-capacity gauges
            Fields.allowOnly(t, where, Set.of("priority", "max_connections", "max_pending_requests", "max_requests",
                    "max_retries", "retry_budget", "track_remaining"));
            ObjectNode limits = list.addObject().put("priority", t.getPriority().name().toLowerCase(Locale.ROOT));
            if (t.hasMaxConnections()) {
                limits.put("max_connections", limit(t.getMaxConnections()));
            }
            if (t.hasMaxPendingRequests()) {
                limits.put("max_pending_requests", limit(t.getMaxPendingRequests()));
            }
            if (t.hasMaxRequests()) {
                limits.put("max_requests", limit(t.getMaxRequests()));
            }
            if (t.hasMaxRetries()) {
                limits.put("max_retries", limit(t.getMaxRetries()));
            }
            if (t.hasRetryBudget()) {
                CircuitBreakers.Thresholds.RetryBudget budget = t.getRetryBudget();
                Fields.allowOnly(budget, where + ".retry_budget", Set.of("budget_percent", "min_retry_concurrency"));
                ObjectNode b = limits.putObject("retry_budget");
                if (budget.hasBudgetPercent()) {
                    b.put("budget_percent", Math.round(budget.getBudgetPercent().getValue()));
                }
                if (budget.hasMinRetryConcurrency()) {
                    b.put("min_retry_concurrency", budget.getMinRetryConcurrency().getValue());
                }
            }
        }
        return tree;
    }

    /**
     * A circuit breaker limit, an unsigned 32-bit value: Istio sends 2^32-1 for "no limit", which
     * becomes the configuration's largest limit, 10^9 at once (no gateway holds that many).
     */
    private static long limit(com.google.protobuf.UInt32Value value) {
        return Math.min(Integer.toUnsignedLong(value.getValue()), MAX_LIMIT);
    }

    /** Whether the hosts are spoken to in HTTP/2: the deprecated field or the typed protocol options. */
    private static boolean http2(Cluster cluster, String at) {
        if (cluster.hasHttp2ProtocolOptions()) {
            Fields.allowOnly(cluster.getHttp2ProtocolOptions(), at + ".http2_protocol_options", Set.of());
            return true;
        }
        Map<String, Any> typed = cluster.getTypedExtensionProtocolOptionsMap();
        for (String key : typed.keySet()) {
            if (!key.equals(HTTP_OPTIONS)) {
                throw new XdsRejection(at + ".typed_extension_protocol_options['" + key + "']: not supported (supported: "
                        + HTTP_OPTIONS + ")");
            }
        }
        Any any = typed.get(HTTP_OPTIONS);
        if (any == null) {
            return false;
        }
        String where = at + ".typed_extension_protocol_options['" + HTTP_OPTIONS + "']";
        HttpProtocolOptions options;
        try {
            options = any.unpack(HttpProtocolOptions.class);
        } catch (InvalidProtocolBufferException e) {
            throw new XdsRejection(where + ": not a HttpProtocolOptions: " + e.getMessage());
        }
        Fields.allowOnly(options, where, Set.of("explicit_http_config"));
        HttpProtocolOptions.ExplicitHttpConfig explicit = options.getExplicitHttpConfig();
        Fields.allowOnly(explicit, where + ".explicit_http_config", Set.of("http_protocol_options", "http2_protocol_options"));
        if (explicit.hasHttp2ProtocolOptions()) {
            Fields.allowOnly(explicit.getHttp2ProtocolOptions(), where + ".explicit_http_config.http2_protocol_options",
                    Set.of());
            return true;
        }
        Fields.allowOnly(explicit.getHttpProtocolOptions(), where + ".explicit_http_config.http_protocol_options", Set.of());
        return false;
    }
}
