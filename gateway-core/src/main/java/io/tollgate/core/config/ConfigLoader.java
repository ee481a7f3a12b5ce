package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.tollgate.core.accesslog.FormatException;
import io.tollgate.core.accesslog.LineFormats;
import io.tollgate.core.extension.ExtensionFactory;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.filter.NetworkFilterConfig;
import io.tollgate.core.filter.NetworkFilterEntry;
import io.tollgate.core.filter.ClusterReferences;
import io.tollgate.core.filter.StreamFilterConfig;
import io.tollgate.core.filter.StreamFilterFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns YAML text into a validated {@link GatewayConfig}. The whole document is checked before
 * anything is returned: a bad field anywhere rejects the whole configuration, and the message
 * names the field's path. Load-balancing policies and health checkers are found by name in an
 * {@link ExtensionRegistry}, and each reads and validates its own settings.
 *
 * <p>The reference of every field is {@code docs/configuration.md}.
 */
public final class ConfigLoader {

    /** Classpath resource holding the built-in configuration used when no file is given. */
    public static final String DEFAULT_RESOURCE = "/io/tollgate/core/config/default-gateway.yaml";

    /** sun_path of a Unix domain socket address holds 108 bytes with the terminating NUL. */
    private static final int MAX_UNIX_SOCKET_PATH_BYTES = 107;
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    /** The keys of a cluster beside those its load-balancing policies read. */
    private static final Set<String> CLUSTER_KEYS = union(Set.of("name", "lb_policy", "endpoints", "connect_timeout",
            "max_connections_per_host", "max_pending_requests", "idle_timeout", "connections_per_host",
            "heartbeat_interval", "health_check", "outlier_detection", "panic_threshold_percent", "subset_lb_config",
            "protocol", "circuit_breakers", "tls", "discovery", "proxy_protocol"), DnsConfigLoader.KEYS);
    /** The keys of a health check beside those its checker reads. */
    private static final Set<String> HEALTH_CHECK_KEYS = Set.of("type", "interval", "timeout", "jitter",
            "healthy_threshold", "unhealthy_threshold");
    private static final List<String> UPSTREAM_HTTP_PROTOCOLS = List.of(ClusterConfig.H2, ClusterConfig.HTTP1);
    /** Subset selectors are matched by a bit set of their keys in one {@code long}. */
    private static final int MAX_SUBSET_KEYS = 64;
    private static final List<Integer> REDIRECT_CODES = List.of(301, 302, 303, 307, 308);

    private ConfigLoader() {
    }

    /** Loads and validates a configuration file, with the extensions of {@link ExtensionRegistry#defaults()}. */
    public static GatewayConfig load(Path file) {
        return load(file, ExtensionRegistry.defaults());
    }

    /** Loads and validates a configuration file, finding extensions by name in {@code extensions}. */
    public static GatewayConfig load(Path file, ExtensionRegistry extensions) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), extensions);
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot be read: " + e.getMessage(), e);
        }
    }

    /** Loads the built-in default configuration. */
    public static GatewayConfig defaults() {
        try (InputStream in = ConfigLoader.class.getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + DEFAULT_RESOURCE);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses and validates YAML text, with the extensions of {@link ExtensionRegistry#defaults()}. */
    public static GatewayConfig parse(String yaml) {
        return parse(yaml, ExtensionRegistry.defaults());
    }

    /** Parses and validates YAML text, finding extensions by name in {@code extensions}. */
    public static GatewayConfig parse(String yaml, ExtensionRegistry extensions) {
        requireNonNull(extensions, "extensions");
        JsonNode tree;
        try {
            tree = YAML.readTree(yaml);
        } catch (JsonProcessingException e) {
            throw new ConfigException("<root>: not valid YAML" + where(e.getLocation()) + ": "
                    + e.getOriginalMessage(), e);
        }
        if (tree == null || tree.isMissingNode()) {
            throw new ConfigException("<root>: the configuration is empty");
        }
        return new ConfigNode(tree, "").read(root -> gateway(root, extensions));
    }

    /**
     * Parses and validates one listener given as a tree shaped like an element of
     * {@code listeners}; errors name fields under {@code path}. For configuration that does not
     * come from a file (xDS): the same rules as the file's.
     */
    public static ListenerConfig listener(JsonNode tree, String path, ExtensionRegistry extensions) {
        return new ConfigNode(tree, path).read(n -> listener(n, extensions));
    }

    /** Parses and validates one cluster given as a tree shaped like an element of {@code clusters}. */
    public static ClusterConfig cluster(JsonNode tree, String path, ExtensionRegistry extensions) {
        return new ConfigNode(tree, path).read(n -> cluster(n, extensions));
    }

    /** Parses and validates one route configuration given as a tree shaped like {@code route_config}. */
    public static RouteConfig routeConfig(JsonNode tree, String path) {
        return new ConfigNode(tree, path).read(n -> routeConfig(n, RouteFilterOverrides.NONE));
    }

    /**
     * Parses and validates one route configuration given as a tree shaped like {@code route_config}
     * whose routes may override the stream filters {@code chain} of the listener serving it (the
     * listener's {@code filters}, already read), as a listener's own {@code route_config} may.
     */
    public static RouteConfig routeConfig(JsonNode tree, String path, List<StreamFilterConfig> chain,
            ExtensionRegistry extensions) {
        return new ConfigNode(tree, path).read(n -> routeConfig(n, new RouteFilterOverrides(chain, extensions)));
    }

    /**
     * Checks PEM files given as a tree with {@code cert_chain_file} and {@code private_key_file}
     * (a certificate and its key), or {@code ca_file} (CA certificates), by the rules of a
     * listener's {@code tls} block; for certificates that do not come from the file (xDS secrets).
     */
    public static void pemFiles(JsonNode tree, String path) {
        new ConfigNode(tree, path).read(n -> {
            TlsConfigLoader.pemFiles(n);
            return n;
        });
    }

    /**
     * The whole file; each top-level section is read whatever the errors of the others, and the
     * clusters routes and filters name are checked last (see {@link ConfigErrors}).
     */
    private static GatewayConfig gateway(ConfigNode root, ExtensionRegistry extensions) {
        root.allowOnly(Set.of("admin", "event_loops", "listeners", "clusters", "demo_upstream", "overload", "node",
                "dynamic_resources", "drain", "upgrade", "config_watch", "registries"));
        AdminConfig admin = root.section("admin", TlsConfigLoader::admin, new AdminConfig("127.0.0.1", 9901));
        List<ListenerConfig> listeners = root.independent(() -> root.list("listeners", n -> listener(n, extensions)),
                List.of());
        List<ClusterConfig> clusters = root.independent(() -> root.list("clusters", n -> cluster(n, extensions)),
                List.of());
        List<String> clusterNames = names(root, "clusters");
        unique(root.child("listeners"), names(root, "listeners"));
        unique(root.child("clusters"), clusterNames);
        Optional<DemoUpstreamConfig> demo = root.section("demo_upstream", n -> {
            n.allowOnly(Set.of("address", "port"));
            return Optional.of(new DemoUpstreamConfig(n.string("address", "127.0.0.1"),
                    n.integer("port", 8081, 0, 65535)));
        }, Optional.empty());
        OverloadConfig overload = root.section("overload", ConfigLoader::overload, OverloadConfig.DEFAULTS);
        DrainConfig drain = root.section("drain", ConfigLoader::drain, DrainConfig.DEFAULTS);
        UpgradeConfig upgrade = root.section("upgrade", ConfigLoader::upgrade, UpgradeConfig.defaults(admin));
        Optional<XdsConfig> xds = root.independent(() -> xds(root), Optional.empty());
        ConfigWatchConfig watch = root.section("config_watch", ConfigLoader::configWatch, ConfigWatchConfig.OFF);
        // A file with dynamic_resources may name clusters the control plane has yet to send
        // (answered 503 until then, as Envoy does). A cluster with errors of its own is still
        // known; with one whose name cannot be read, any name might be meant: nothing is checked.
        if (!root.has("dynamic_resources") && !clusterNames.contains("")) {
            root.checkClusterReferences(Set.copyOf(clusterNames));
        }
        return new GatewayConfig(admin, root.integer("event_loops", 0, 0, 1024), listeners, clusters, demo, overload,
                xds, drain, upgrade, watch,
                root.independent(() -> DiscoveryConfigLoader.discovery(root, clusters), DiscoveryConfig.NONE));
    }

    /**
     * The names the elements of the list at {@code key} are given as written, those of elements
     * with errors too ({@code ""} where none can be read), by their index in the file; only
     * {@code ""} when the list itself cannot be read.
     */
    private static List<String> names(ConfigNode root, String key) {
        return root.independent(() -> root.list(key, n -> n.string("name", "")), List.of(""));
    }

    private static UpgradeConfig upgrade(ConfigNode n) {
        n.allowOnly(Set.of("socket_path"));
        String path = n.string("socket_path");
        if (path.isBlank() || path.getBytes(StandardCharsets.UTF_8).length > MAX_UNIX_SOCKET_PATH_BYTES) {
            throw n.child("socket_path").error("'" + path + "' (expected: a non-blank path of at most "
                    + MAX_UNIX_SOCKET_PATH_BYTES + " bytes, the limit of a Unix domain socket address)");
        }
        return new UpgradeConfig(Path.of(path));
    }

    /** {@code config_watch}: on once the block is there, unless {@code enabled: false}. */
    private static ConfigWatchConfig configWatch(ConfigNode n) {
        n.allowOnly(Set.of("enabled", "debounce"));
        return new ConfigWatchConfig(n.bool("enabled", true), positive(n, "debounce", ConfigWatchConfig.DEFAULT_DEBOUNCE));
    }

    private static DrainConfig drain(ConfigNode n) {
        n.allowOnly(Set.of("timeout"));
        return new DrainConfig(positive(n, "timeout", DrainConfig.DEFAULTS.timeout()));
    }

    private static OverloadConfig overload(ConfigNode n) {
        n.allowOnly(Set.of("max_connections", "heap_threshold", "fd_threshold", "check_interval"));
        OverloadConfig d = OverloadConfig.DEFAULTS;
        return new OverloadConfig(
                n.integer("max_connections", d.maxConnections(), 0, Integer.MAX_VALUE),
                share(n, "heap_threshold", d.heapThreshold()),
                share(n, "fd_threshold", d.fdThreshold()),
                positive(n, "check_interval", d.checkInterval()));
    }

    /** A share at {@code key}: a number greater than 0 and at most 1. */
    private static double share(ConfigNode n, String key, double defaultValue) {
        return n.optional(key).map(v -> {
            double share = v.asDouble();
            if (!(share > 0 && share <= 1)) {
                throw v.error(share + " (expected: > 0 and <= 1)");
            }
            return share;
        }).orElse(defaultValue);
    }

    /** The control plane of {@code dynamic_resources}, which needs a {@code node} to introduce the gateway. */
    private static Optional<XdsConfig> xds(ConfigNode root) {
        if (!root.has("dynamic_resources")) {
            if (root.has("node")) {
                throw root.child("node").error("is only used with dynamic_resources (none configured)");
            }
            return Optional.empty();
        }
        ConfigNode dynamic = root.child("dynamic_resources");
        dynamic.allowOnly(Set.of("ads_config"));
        ConfigNode ads = dynamic.required("ads_config");
        ads.allowOnly(Set.of("address", "port", "initial_backoff", "max_backoff", "tls", "max_message_bytes",
                "api_type"));
        Duration initial = positive(ads, "initial_backoff", XdsConfig.DEFAULT_INITIAL_BACKOFF);
        Duration max = positive(ads, "max_backoff", XdsConfig.DEFAULT_MAX_BACKOFF);
        if (max.compareTo(initial) < 0) {
            throw ads.child("max_backoff").error(max.toMillis() + " ms (expected at least initial_backoff, "
                    + initial.toMillis() + " ms)");
        }
        Optional<UpstreamTlsConfig> tls = TlsConfigLoader.upstream(ads, ClusterConfig.H2);
        if (tls.isPresent() && !tls.get().alpn().equals(List.of(TlsConfig.H2))) {
            throw ads.child("tls").child("alpn").error(tls.get().alpn() + " (expected [" + TlsConfig.H2
                    + "]: gRPC speaks HTTP/2)");
        }
        return Optional.of(new XdsConfig(node(root.required("node")), ads.string("address"),
                (int) ads.required("port").asLong(1, 65535), initial, max, tls,
                ads.integer("max_message_bytes", XdsConfig.DEFAULT_MAX_MESSAGE_BYTES, 4 * 1024 * 1024, Integer.MAX_VALUE),
                apiType(ads)));
    }

    /** The ADS protocol of {@code api_type}: Envoy's names, {@code GRPC} (state of the world) by default. */
    private static XdsConfig.ApiType apiType(ConfigNode ads) {
        String name = ads.string("api_type", XdsConfig.ApiType.GRPC.name());
        for (XdsConfig.ApiType type : XdsConfig.ApiType.values()) {
            if (type.name().equals(name)) {
                return type;
            }
        }
        throw ads.child("api_type").error("'" + name + "' (expected one of "
                + Arrays.toString(XdsConfig.ApiType.values()) + ")");
    }

    private static XdsConfig.Node node(ConfigNode n) {
        n.allowOnly(Set.of("id", "cluster", "locality", "metadata"));
        XdsConfig.Locality locality = n.optional("locality").map(l -> {
            l.allowOnly(Set.of("region", "zone", "sub_zone"));
            return new XdsConfig.Locality(l.string("region", ""), l.string("zone", ""), l.string("sub_zone", ""));
        }).orElse(XdsConfig.Locality.NONE);
        return new XdsConfig.Node(n.string("id"), n.string("cluster"), locality, n.valueMap("metadata"));
    }

    private static ListenerConfig listener(ConfigNode n, ExtensionRegistry extensions) {
        Set<String> keys = new HashSet<>(Set.of("name", "address", "port", "protocols", "route_config", "http",
                "http2", "access_log", "tls", "protocol_detection_timeout", "max_connections", "filters",
                "network_filters", "proxy_protocol"));
        keys.addAll(extensions.names(ProtocolOptions.class));
        n.allowOnly(keys);
        List<NetworkFilterEntry> networkFilters = networkFilters(n, extensions);
        boolean tcp = !networkFilters.isEmpty() && networkFilters.get(networkFilters.size() - 1).config().terminal();
        Map<String, ProtocolOptions> protocolOptions = new LinkedHashMap<>();
        List<String> protocols = n.list("protocols", p -> {
            String name = p.asString();
            ProtocolFactory factory = extensions.find(ProtocolOptions.class, name, ProtocolFactory.class)
                    .orElseThrow(() -> p.error("unknown protocol '" + name + "' (expected one of "
                            + extensions.names(ProtocolOptions.class) + ")"));
            protocolOptions.put(name, n.optional(name).map(block -> factory.parse(block, factory.defaults()))
                    .orElse(factory.defaults()));
            return name;
        });
        if (protocols.isEmpty()) {
            protocols = List.of(tcp ? ListenerConfig.TCP : "http1");
            protocolOptions.put(protocols.get(0), ProtocolOptions.NONE);
        }
        if (tcp != protocols.contains(ListenerConfig.TCP) || tcp && protocols.size() > 1) {
            throw n.child("protocols").error(protocols + (tcp ? " (expected [tcp]: the last network filter is terminal)"
                    : " (expected no tcp: a tcp listener's network_filters end with a terminal filter such as tcp_proxy)"));
        }
        if (tcp) {
            for (String key : List.of("route_config", "filters", "tls", "http", "http2")) {
                if (n.has(key)) {
                    throw n.child(key).error("does not apply to a tcp listener (its terminal network filter serves it)");
                }
            }
        }
        for (String name : extensions.names(ProtocolOptions.class)) {
            if (n.has(name) && !protocolOptions.containsKey(name)) {
                throw n.child(name).error("only applies to a listener serving " + name + " (protocols are "
                        + protocols + ")");
            }
        }
        HttpOptions http = n.optional("http").map(ConfigLoader::httpOptions).orElse(HttpOptions.DEFAULTS);
        AccessLogConfig accessLog = n.optional("access_log").map(ConfigLoader::accessLog).orElse(AccessLogConfig.DISABLED);
        List<StreamFilterConfig> filters = n.list("filters", f -> streamFilter(f, extensions));
        oneKindPerName(n.child("filters"), filters);
        return new ListenerConfig(
                n.string("name"),
                n.string("address", "127.0.0.1"),
                n.integer("port", 0, 0, 65535),
                protocols,
                tcp ? new RouteConfig(List.of()) : n.independent(() -> routeConfig(n.required("route_config"),
                        new RouteFilterOverrides(filters, extensions)), new RouteConfig(List.of())),
                http,
                accessLog,
                protocolOptions,
                n.optional("http2").map(ConfigLoader::http2Options).orElse(Http2Options.DEFAULTS),
                TlsConfigLoader.listener(n, protocols),
                new ConnectionLimits(
                        positive(n, "protocol_detection_timeout", ConnectionLimits.DEFAULT_PROTOCOL_DETECTION_TIMEOUT),
                        n.integer("max_connections", 0, 0, Integer.MAX_VALUE)),
                filters,
                networkFilters,
                ProxyProtocolConfig.parse(n));
    }

    /**
     * One entry of a listener's {@code filters}: {@code name}, an optional {@code kind} (the
     * registered filter; default: the name), and the keys the filter of that kind reads; or
     * {@code name} and {@code disabled: true}, a filter that runs only on the routes that give it
     * settings of their own (Envoy's {@code disabled} HTTP filter). A name of one's own is no
     * other kind's name, so that a route's override under a kind's name is for that kind.
     */
    private static StreamFilterConfig streamFilter(ConfigNode n, ExtensionRegistry extensions) {
        String name = n.string("name");
        String kind = n.string("kind", name);
        StreamFilterFactory factory = extensions.find(StreamFilterConfig.class, kind, StreamFilterFactory.class)
                .orElseThrow(() -> n.has("kind")
                        ? n.child("kind").error("unknown filter kind '" + kind + "' (expected one of "
                                + extensions.names(StreamFilterConfig.class) + ")")
                        : n.child("name").error("unknown filter '" + name + "' (expected one of "
                                + extensions.names(StreamFilterConfig.class) + ", or a name of its own beside its kind)"));
        if (!name.equals(kind) && extensions.find(StreamFilterConfig.class, name, StreamFilterFactory.class).isPresent()) {
            throw n.child("name").error("'" + name + "' is another kind of filter than kind '" + kind
                    + "' (expected a name that is no filter kind, or kind " + name + ")");
        }
        StreamFilterConfig entry = StreamFilterConfig.named(name, kind);
        if (n.bool("disabled", false)) {
            n.allowOnly(Set.of("name", "kind", "disabled"));
            return entry.asDisabled();
        }
        Set<String> keys = new HashSet<>(factory.keys());
        keys.add("name");
        keys.add("kind");
        keys.add("disabled");
        n.allowOnly(keys);
        return referencesOf(n, factory.parse(n, entry));
    }

    /** Notes the clusters {@code filter}, read at {@code n}, names; returns it. */
    private static StreamFilterConfig referencesOf(ConfigNode n, StreamFilterConfig filter) {
        if (filter.settings() instanceof ClusterReferences references) {
            references.clusters().forEach(cluster -> n.child("cluster").referenceToCluster(cluster));
        }
        return filter;
    }

    /**
     * Fails on the first filter of {@code filters} (the list at {@code list}) that shares its name
     * with an earlier one of another kind. Filters of one kind may share a name, as Envoy's HTTP
     * filters may (Istio names its DENY and ALLOW RBAC filters alike): a route's override under
     * the name applies to each of them.
     */
    private static void oneKindPerName(ConfigNode list, List<StreamFilterConfig> filters) {
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < filters.size(); i++) {
            StreamFilterConfig filter = filters.get(i);
            Integer earlier = first.putIfAbsent(filter.name(), i);
            if (earlier != null && !filters.get(earlier).kind().equals(filter.kind())) {
                throw list.element(i).child("name").error("'" + filter.name() + "' also names " + list.path() + "["
                        + earlier + "], a " + filters.get(earlier).kind() + " filter (expected filters of one name"
                        + " to be of one kind: a route's override under the name applies to each)");
            }
        }
    }

    /** Reads an {@code access_log} block and compiles its format once here, so a bad operator fails the load. */
    private static AccessLogConfig accessLog(ConfigNode a) {
        a.allowOnly(Set.of("path", "format", "json_format"));
        if (a.has("format") && a.has("json_format")) {
            throw a.child("json_format").error("set beside format (expected one of format and json_format)");
        }
        AccessLogConfig config = new AccessLogConfig(a.string("path", ""), a.string("format", ""),
                a.stringMap("json_format"));
        try {
            LineFormats.of(config);
        } catch (FormatException e) {
            throw a.child(e.field()).error(e.getMessage());
        }
        return config;
    }

    /** The listener's ordered {@code network_filters}, each read by its factory; a terminal one only last. */
    private static List<NetworkFilterEntry> networkFilters(ConfigNode listener, ExtensionRegistry extensions) {
        List<NetworkFilterEntry> filters = listener.list("network_filters", f -> {
            String name = f.string("name");
            ExtensionFactory<NetworkFilterConfig> factory = extensions.find(NetworkFilterConfig.class, name)
                    .orElseThrow(() -> f.child("name").error("unknown network filter '" + name + "' (expected one of "
                            + extensions.names(NetworkFilterConfig.class) + ")"));
            Set<String> keys = new HashSet<>(factory.keys());
            keys.add("name");
            f.allowOnly(keys);
            NetworkFilterConfig config = factory.parse(f, NetworkFilterConfig.NONE);
            config.clusters().forEach(cluster -> f.child("cluster").referenceToCluster(cluster));
            return new NetworkFilterEntry(name, config);
        });
        for (int i = 0; i < filters.size() - 1; i++) {
            if (filters.get(i).config().terminal()) {
                throw listener.child("network_filters").element(i).error(filters.get(i).name()
                        + " is terminal (expected it last, followed by no other filter)");
            }
        }
        return filters;
    }

    private static Http2Options http2Options(ConfigNode n) {
        n.allowOnly(Set.of("max_concurrent_streams", "initial_window_bytes", "max_frame_bytes", "max_header_list_bytes",
                "max_resets_per_window", "reset_window", "max_queued_control_frames", "max_small_continuation_frames",
                "window_hold_timeout", "first_frame_timeout"));
        Http2Options d = Http2Options.DEFAULTS;
        return new Http2Options(
                n.integer("max_concurrent_streams", d.maxConcurrentStreams(), 1, 1_000_000),
                n.integer("initial_window_bytes", d.initialWindowBytes(), 1, Integer.MAX_VALUE),
                n.integer("max_frame_bytes", d.maxFrameBytes(), 16_384, 16_777_215),
                n.integer("max_header_list_bytes", d.maxHeaderListBytes(), 1024, 1 << 24),
                n.integer("max_resets_per_window", d.maxResetsPerWindow(), 1, 1_000_000),
                positive(n, "reset_window", d.resetWindow()),
                n.integer("max_queued_control_frames", d.maxQueuedControlFrames(), 1, 1_000_000),
                n.integer("max_small_continuation_frames", d.maxSmallContinuationFrames(), 1, 1_000_000),
                positive(n, "window_hold_timeout", d.windowHoldTimeout()),
                positive(n, "first_frame_timeout", d.firstFrameTimeout()));
    }

    private static HttpOptions httpOptions(ConfigNode n) {
        n.allowOnly(Set.of("max_initial_line_bytes", "max_header_bytes", "max_request_body_bytes",
                "idle_timeout", "request_headers_timeout"));
        HttpOptions d = HttpOptions.DEFAULTS;
        return new HttpOptions(
                n.integer("max_initial_line_bytes", d.maxInitialLineBytes(), 256, 1 << 20),
                n.integer("max_header_bytes", d.maxHeaderBytes(), 1024, 1 << 24),
                n.longValue("max_request_body_bytes", d.maxRequestBodyBytes(), 0, Long.MAX_VALUE),
                positive(n, "idle_timeout", d.idleTimeout()),
                positive(n, "request_headers_timeout", d.requestHeadersTimeout()));
    }

    private static RouteConfig routeConfig(ConfigNode n, RouteFilterOverrides overrides) {
        n.allowOnly(Set.of("virtual_hosts"));
        List<VirtualHostConfig> hosts = n.list("virtual_hosts", h -> virtualHost(h, overrides));
        unique(n.child("virtual_hosts"), hosts.stream().map(VirtualHostConfig::name).toList());
        Map<String, Integer> owners = new HashMap<>();
        for (int i = 0; i < hosts.size(); i++) {
            List<String> domains = hosts.get(i).domains();
            for (int d = 0; d < domains.size(); d++) {
                Integer owner = owners.putIfAbsent(domains.get(d), i);
                if (owner != null) {
                    throw n.child("virtual_hosts[" + i + "].domains[" + d + "]").error("domain '" + domains.get(d)
                            + "' is already served by virtual_hosts[" + owner + "] (expected each domain once)");
                }
            }
        }
        return new RouteConfig(hosts);
    }

    private static VirtualHostConfig virtualHost(ConfigNode n, RouteFilterOverrides overrides) {
        n.allowOnly(Set.of("name", "domains", "routes"));
        List<String> domains = n.list("domains", d -> {
            String domain = d.asString().toLowerCase(Locale.ROOT);
            int star = domain.indexOf('*');
            boolean valid = !domain.isEmpty() && (star < 0 || domain.equals("*")
                    || (star == 0 && domain.indexOf('*', 1) < 0 && domain.length() > 1)
                    || (star == domain.length() - 1 && domain.indexOf('*') == star && domain.length() > 1));
            if (!valid) {
                throw d.error("'" + d.asString() + "' is not a domain (expected an exact name, *.suffix, prefix.* or *)");
            }
            return domain;
        });
        if (domains.isEmpty()) {
            throw n.child("domains").error("must list at least one domain");
        }
        List<RouteEntryConfig> routes = n.list("routes", r -> route(r, overrides));
        unique(n.child("routes"), routes.stream().map(RouteEntryConfig::name).toList());
        return new VirtualHostConfig(n.string("name"), domains, routes);
    }

    private static RouteEntryConfig route(ConfigNode n, RouteFilterOverrides overrides) {
        n.allowOnly(Set.of("name", "match", "route", "direct_response", "redirect",
                "request_headers", "response_headers", "filters"));
        Optional<ForwardActionConfig> forward = n.optional("route").map(ConfigLoader::forward);
        Optional<DirectResponseConfig> direct = n.optional("direct_response").map(d -> {
            d.allowOnly(Set.of("status", "body"));
            return new DirectResponseConfig(d.integer("status", 200, 200, 599), d.string("body", ""));
        });
        Optional<RedirectConfig> redirect = n.optional("redirect").map(ConfigLoader::redirect);
        int actions = (forward.isPresent() ? 1 : 0) + (direct.isPresent() ? 1 : 0) + (redirect.isPresent() ? 1 : 0);
        if (actions != 1) {
            throw n.error("needs exactly one of route, direct_response, redirect (found " + actions + ")");
        }
        RouteMatchConfig match = match(n.required("match"));
        if (match.regex().isPresent()) {
            forward.flatMap(ForwardActionConfig::prefixRewrite).ifPresent(p -> {
                throw n.child("route.prefix_rewrite").error("needs a path or prefix match (the match is a regex)");
            });
            redirect.flatMap(RedirectConfig::prefixRewrite).ifPresent(p -> {
                throw n.child("redirect.prefix_rewrite").error("needs a path or prefix match (the match is a regex)");
            });
        }
        return new RouteEntryConfig(
                n.string("name", ""),
                match,
                forward,
                direct,
                redirect,
                n.optional("request_headers").map(ConfigLoader::headerMutation).orElse(HeaderMutationConfig.NONE),
                n.optional("response_headers").map(ConfigLoader::headerMutation).orElse(HeaderMutationConfig.NONE),
                n.optional("filters").map(f -> overrides(f, overrides)).orElse(Map.of()));
    }

    /** A route's overrides of its listener's stream filters, noting the clusters they name. */
    private static Map<String, StreamFilterConfig> overrides(ConfigNode n, RouteFilterOverrides overrides) {
        Map<String, StreamFilterConfig> parsed = overrides.parse(n);
        parsed.forEach((name, override) -> referencesOf(n.child(name), override));
        return parsed;
    }

    private static RouteMatchConfig match(ConfigNode n) {
        n.allowOnly(Set.of("path", "prefix", "regex", "headers", "query_parameters"));
        Optional<String> path = n.optionalString("path");
        Optional<String> prefix = n.optionalString("prefix");
        Optional<String> regex = n.optionalString("regex");
        int kinds = (path.isPresent() ? 1 : 0) + (prefix.isPresent() ? 1 : 0) + (regex.isPresent() ? 1 : 0);
        if (kinds != 1) {
            throw n.error("needs exactly one of path, prefix, regex (found " + kinds + ")");
        }
        path.ifPresent(p -> absolutePath(n.child("path"), p));
        prefix.ifPresent(p -> absolutePath(n.child("prefix"), p));
        regex.ifPresent(r -> compile(n.child("regex"), r));
        return new RouteMatchConfig(path, prefix, regex,
                n.list("headers", h -> valueMatcher(h, headerName(h.child("name"), h.string("name")))),
                n.list("query_parameters", q -> valueMatcher(q, q.string("name"))));
    }

    private static void absolutePath(ConfigNode n, String path) {
        if (!path.startsWith("/")) {
            throw n.error("must start with '/' (was '" + path + "')");
        }
    }

    private static ValueMatcherConfig valueMatcher(ConfigNode n, String name) {
        n.allowOnly(Set.of("name", "exact", "regex", "present", "invert"));
        Optional<String> exact = n.optionalString("exact");
        Optional<String> regex = n.optionalString("regex");
        boolean present = n.bool("present", false);
        int kinds = (exact.isPresent() ? 1 : 0) + (regex.isPresent() ? 1 : 0) + (present ? 1 : 0);
        if (kinds != 1) {
            throw n.error("needs exactly one of exact, regex, present: true (found " + kinds + ")");
        }
        regex.ifPresent(r -> compile(n.child("regex"), r));
        return new ValueMatcherConfig(name, exact, regex, present, n.bool("invert", false));
    }

    private static ForwardActionConfig forward(ConfigNode n) {
        n.allowOnly(Set.of("cluster", "weighted_clusters", "prefix_rewrite", "host_rewrite", "timeout",
                "metadata_match", "retry_policy", "per_request_buffer_limit_bytes", "hash_policy", "priority",
                "max_grpc_timeout"));
        Optional<String> cluster = n.optionalString("cluster");
        cluster.ifPresent(c -> n.child("cluster").referenceToCluster(c));
        List<WeightedClusterConfig> weighted = n.list("weighted_clusters", w -> {
            w.allowOnly(Set.of("name", "weight"));
            String name = w.string("name");
            w.child("name").referenceToCluster(name);
            return new WeightedClusterConfig(name, w.integer("weight", 1, 1, 1_000_000));
        });
        if (cluster.isPresent() == !weighted.isEmpty()) {
            throw n.error("needs exactly one of cluster, weighted_clusters");
        }
        unique(n.child("weighted_clusters"), weighted.stream().map(WeightedClusterConfig::name).toList());
        n.optionalString("prefix_rewrite").ifPresent(p -> absolutePath(n.child("prefix_rewrite"), p));
        Duration timeout = positive(n, "timeout", ForwardActionConfig.DEFAULT_TIMEOUT);
        return new ForwardActionConfig(cluster, weighted, n.optionalString("prefix_rewrite"),
                n.optionalString("host_rewrite"), timeout,
                n.stringMap("metadata_match"), n.optional("retry_policy").map(ConfigLoader::retryPolicy),
                n.integer("per_request_buffer_limit_bytes", ForwardActionConfig.DEFAULT_PER_REQUEST_BUFFER_LIMIT_BYTES,
                        0, Integer.MAX_VALUE),
                n.list("hash_policy", HashPolicyConfig::parse), priority(n, "priority"),
                positive(n, "max_grpc_timeout", timeout));
    }

    private static RetryPolicyConfig retryPolicy(ConfigNode n) {
        n.allowOnly(Set.of("retry_on", "retriable_status_codes", "num_retries", "per_try_timeout", "retry_back_off",
                "retry_non_idempotent"));
        List<RetryPolicyConfig.Condition> retryOn = n.list("retry_on", c -> RetryPolicyConfig.Condition.named(c.asString())
                .orElseThrow(() -> c.error("unknown condition '" + c.asString() + "' (expected one of "
                        + Arrays.stream(RetryPolicyConfig.Condition.values()).map(RetryPolicyConfig.Condition::configName)
                                .toList() + ")")));
        List<Integer> codes = n.list("retriable_status_codes", c -> (int) c.asLong(100, 599));
        if (retryOn.contains(RetryPolicyConfig.Condition.RETRIABLE_STATUS_CODES) && codes.isEmpty()) {
            throw n.child("retriable_status_codes").error("must list at least one status (retry_on has retriable-status-codes)");
        }
        Duration base = RetryPolicyConfig.DEFAULT_BASE_INTERVAL;
        Duration max = null;
        Optional<ConfigNode> backOff = n.optional("retry_back_off");
        if (backOff.isPresent()) {
            ConfigNode b = backOff.get();
            b.allowOnly(Set.of("base_interval", "max_interval"));
            base = positive(b, "base_interval", base);
            max = positive(b, "max_interval", base.multipliedBy(10));
            if (max.compareTo(base) < 0) {
                throw b.child("max_interval").error(max.toMillis() + " ms (expected at least base_interval, "
                        + base.toMillis() + " ms)");
            }
        }
        return new RetryPolicyConfig(Set.copyOf(retryOn), Set.copyOf(codes),
                n.integer("num_retries", RetryPolicyConfig.DEFAULT_NUM_RETRIES, 0, 100),
                n.has("per_try_timeout") ? Optional.of(positive(n, "per_try_timeout", null)) : Optional.empty(),
                base, max == null ? base.multipliedBy(10) : max, n.bool("retry_non_idempotent", false));
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

    /** The priority named at {@code key}, {@code default} when absent. */
    private static RoutingPriority priority(ConfigNode n, String key) {
        if (!n.has(key)) {
            return RoutingPriority.DEFAULT;
        }
        ConfigNode value = n.child(key);
        return RoutingPriority.named(value.asString()).orElseThrow(() -> value.error("unknown priority '"
                + value.asString() + "' (expected one of " + Arrays.stream(RoutingPriority.values())
                        .map(RoutingPriority::configName).toList() + ")"));
    }

    private static RedirectConfig redirect(ConfigNode n) {
        n.allowOnly(Set.of("scheme", "host", "port", "path", "prefix_rewrite", "response_code", "strip_query"));
        int code = n.integer("response_code", 301, 0, 999);
        if (!REDIRECT_CODES.contains(code)) {
            throw n.child("response_code").error(code + " (expected one of " + REDIRECT_CODES + ")");
        }
        if (n.has("path") && n.has("prefix_rewrite")) {
            throw n.error("path and prefix_rewrite exclude each other");
        }
        n.optionalString("path").ifPresent(p -> absolutePath(n.child("path"), p));
        n.optionalString("prefix_rewrite").ifPresent(p -> absolutePath(n.child("prefix_rewrite"), p));
        n.optionalString("scheme").filter(s -> !s.equals("http") && !s.equals("https")).ifPresent(s -> {
            throw n.child("scheme").error("'" + s + "' (expected http or https)");
        });
        return new RedirectConfig(n.optionalString("scheme"), n.optionalString("host"),
                n.optional("port").map(p -> (int) p.asLong(1, 65535)), n.optionalString("path"),
                n.optionalString("prefix_rewrite"), code, n.bool("strip_query", false));
    }

    /**
     * Reads a header mutation ({@code add}: name, value, append; {@code remove}: names), as a
     * route's {@code request_headers} and the {@code headers} filter write it.
     */
    public static HeaderMutationConfig headerMutation(ConfigNode n) {
        n.allowOnly(Set.of("add", "remove"));
        List<HeaderValueConfig> add = n.list("add", h -> {
            h.allowOnly(Set.of("name", "value", "append"));
            return new HeaderValueConfig(headerName(h.child("name"), h.string("name")),
                    h.string("value", ""), h.bool("append", false));
        });
        List<String> remove = n.list("remove", h -> headerName(h, h.asString()));
        return new HeaderMutationConfig(add, remove);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    /** {@code name} in lower case, when it is a valid header name; {@code n} is where it was read. */
    static String headerName(ConfigNode n, String name) {
        if (name.isEmpty()) {
            throw n.error("'' is not a valid header name");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= ' ' || c >= 127 || c == ':') {
                throw n.error("'" + name + "' is not a valid header name");
            }
        }
        return name.toLowerCase(Locale.ROOT);
    }

    private static ClusterConfig cluster(ConfigNode n, ExtensionRegistry extensions) {
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
                positive(n, "connect_timeout", Duration.ofSeconds(5)),
                n.integer("max_connections_per_host", 1024, 1, 1_000_000),
                n.integer("max_pending_requests", 1024, 0, 1_000_000),
                positive(n, "idle_timeout", Duration.ofSeconds(50)),
                n.integer("connections_per_host", ClusterConfig.DEFAULT_CONNECTIONS_PER_HOST, 1, 64),
                positive(n, "heartbeat_interval", ClusterConfig.DEFAULT_HEARTBEAT_INTERVAL),
                n.optional("health_check").map(h -> healthCheck(h, extensions)),
                n.optional("outlier_detection").map(ConfigLoader::outlierDetection),
                n.integer("panic_threshold_percent", ClusterConfig.DEFAULT_PANIC_THRESHOLD_PERCENT, 0, 100),
                n.optional("subset_lb_config").map(ConfigLoader::subsetLbConfig),
                protocol,
                n.optional("circuit_breakers").map(ConfigLoader::circuitBreakers).orElse(CircuitBreakersConfig.DEFAULTS),
                loadBalancing(n, lb, extensions),
                TlsConfigLoader.upstream(n, protocol),
                UpstreamProxyProtocol.parse(n),
                DnsConfigLoader.dns(n, endpoints));
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
                positive(n, "interval", Duration.ofSeconds(10)),
                positive(n, "timeout", Duration.ofSeconds(1)),
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
        Duration base = positive(n, "base_ejection_time", Duration.ofSeconds(30));
        Duration max = positive(n, "max_ejection_time", Duration.ofSeconds(300));
        if (max.compareTo(base) < 0) {
            throw n.child("max_ejection_time").error(max.toMillis() + " ms (expected at least base_ejection_time, "
                    + base.toMillis() + " ms)");
        }
        return new OutlierDetectionConfig(
                n.integer("consecutive_5xx", 5, 0, 1_000_000),
                n.integer("consecutive_gateway_failure", 0, 0, 1_000_000),
                n.integer("consecutive_connect_failure", 0, 0, 1_000_000),
                positive(n, "interval", Duration.ofSeconds(10)),
                base,
                max,
                n.integer("max_ejection_percent", 10, 0, 100));
    }

    private static SubsetLbConfig subsetLbConfig(ConfigNode n) {
        n.allowOnly(Set.of("fallback_policy", "default_subset", "subset_selectors", "header_prefix"));
        List<SubsetSelectorConfig> selectors = n.list("subset_selectors", ConfigLoader::subsetSelector);
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

    private static <E extends Enum<E>> E enumValue(ConfigNode n, String key, E defaultValue) {
        if (!n.has(key)) {
            return defaultValue;
        }
        String name = n.string(key);
        for (E value : defaultValue.getDeclaringClass().getEnumConstants()) {
            if (value.name().equals(name)) {
                return value;
            }
        }
        throw n.child(key).error("'" + name + "' (expected one of "
                + List.of(defaultValue.getDeclaringClass().getEnumConstants()) + ")");
    }

    private static Duration positive(ConfigNode n, String key, Duration defaultValue) {
        return n.positiveDuration(key, defaultValue);
    }

    private static void compile(ConfigNode n, String regex) {
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw n.error("'" + regex + "' is not a valid regex: " + e.getDescription());
        }
    }

    private static void unique(ConfigNode list, List<String> names) {
        unique(list, names, "name");
    }

    /** Reports each element of {@code list} whose key repeats an earlier one; empty keys are not compared. */
    static void unique(ConfigNode list, List<String> keys, String keyName) {
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            Integer earlier = key.isEmpty() ? null : first.putIfAbsent(key, i);
            if (earlier != null) {
                list.element(i).report(keyName + " '" + key + "' is already used by " + list.path()
                        + "[" + earlier + "] (expected each " + keyName + " once)");
            }
        }
    }

    private static String where(JsonLocation location) {
        return location == null || location.getLineNr() < 0 ? ""
                : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }
}
