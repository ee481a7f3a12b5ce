package io.tollgate.core.config.read;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tollgate.core.config.AdminConfig;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ConfigChecks;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.ConfigWatchConfig;
import io.tollgate.core.config.DemoUpstreamConfig;
import io.tollgate.core.config.DiscoveryConfig;
import io.tollgate.core.config.DrainConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.HeaderMutationConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.OverloadConfig;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.config.UpgradeConfig;
import io.tollgate.core.config.XdsConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns YAML text into a validated {@link GatewayConfig}. The whole document is checked before
 * anything is returned: a bad field anywhere rejects the whole configuration, and the message
 * names the field's path. Load-balancing policies and health checkers are found by name in an
 * {@link ExtensionRegistry}, and each reads and validates its own settings.
 *
 * <p>This class is the one face of the configuration's readers, one per section: listeners
 * ({@code ListenerReader}), routes ({@code RouteReader}), clusters ({@code ClusterReader}), TLS
 * ({@code TlsReader}), filters and access log ({@code FilterReader}), admin and runtime
 * ({@code RuntimeReader}), the xDS bootstrap ({@code XdsBootstrapReader}) and the registries
 * ({@code DiscoveryConfigLoader}). The xDS translators read the resources they translate through
 * it by the rules of the file.
 *
 * <p>The reference of every field is {@code docs/configuration.md}.
 */
public final class ConfigLoader {

    /** Classpath resource holding the built-in configuration used when no file is given. */
    public static final String DEFAULT_RESOURCE = "/io/tollgate/core/config/default-gateway.yaml";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

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
        return new ConfigNode(tree, path).read(n -> ListenerReader.listener(n, extensions));
    }

    /** Parses and validates one cluster given as a tree shaped like an element of {@code clusters}. */
    public static ClusterConfig cluster(JsonNode tree, String path, ExtensionRegistry extensions) {
        return new ConfigNode(tree, path).read(n -> ClusterReader.cluster(n, extensions));
    }

    /** Parses and validates one route configuration given as a tree shaped like {@code route_config}. */
    public static RouteConfig routeConfig(JsonNode tree, String path) {
        return new ConfigNode(tree, path).read(n -> RouteReader.routeConfig(n, RouteFilterOverrides.NONE));
    }

    /**
     * Parses and validates one route configuration given as a tree shaped like {@code route_config}
     * whose routes may override the stream filters {@code chain} of the listener serving it (the
     * listener's {@code filters}, already read), as a listener's own {@code route_config} may.
     */
    public static RouteConfig routeConfig(JsonNode tree, String path, List<StreamFilterConfig> chain,
            ExtensionRegistry extensions) {
        return new ConfigNode(tree, path).read(n -> RouteReader.routeConfig(n,
                new RouteFilterOverrides(chain, extensions)));
    }

    /**
     * Checks PEM files given as a tree with {@code cert_chain_file} and {@code private_key_file}
     * (a certificate and its key), or {@code ca_file} (CA certificates), by the rules of a
     * listener's {@code tls} block; for certificates that do not come from the file (xDS secrets).
     */
    public static void pemFiles(JsonNode tree, String path) {
        new ConfigNode(tree, path).read(n -> {
            TlsReader.pemFiles(n);
            return n;
        });
    }

    /**
     * Reads a header mutation ({@code add}: name, value, append; {@code remove}: names), as a
     * route's {@code request_headers} and the {@code headers} filter write it.
     */
    public static HeaderMutationConfig headerMutation(ConfigNode n) {
        return RouteReader.headerMutation(n);
    }

    /**
     * The whole file; each top-level section is read whatever the errors of the others, and the
     * clusters routes and filters name are checked last (see {@link io.tollgate.core.config.ConfigErrors}).
     */
    private static GatewayConfig gateway(ConfigNode root, ExtensionRegistry extensions) {
        root.allowOnly(Set.of("admin", "event_loops", "listeners", "clusters", "demo_upstream", "overload", "node",
                "dynamic_resources", "drain", "upgrade", "config_watch", "registries"));
        AdminConfig admin = root.section("admin", RuntimeReader::admin, new AdminConfig("127.0.0.1", 9901));
        List<ListenerConfig> listeners = root.independent(() -> root.list("listeners", n -> ListenerReader.listener(n, extensions)),
                List.of());
        List<ClusterConfig> clusters = root.independent(() -> root.list("clusters", n -> ClusterReader.cluster(n, extensions)),
                List.of());
        List<String> clusterNames = names(root, "clusters");
        ConfigChecks.unique(root.child("listeners"), names(root, "listeners"));
        ConfigChecks.unique(root.child("clusters"), clusterNames);
        Optional<DemoUpstreamConfig> demo = root.section("demo_upstream", RuntimeReader::demoUpstream,
                Optional.empty());
        OverloadConfig overload = root.section("overload", RuntimeReader::overload, OverloadConfig.DEFAULTS);
        DrainConfig drain = root.section("drain", RuntimeReader::drain, DrainConfig.DEFAULTS);
        UpgradeConfig upgrade = root.section("upgrade", RuntimeReader::upgrade, UpgradeConfig.defaults(admin));
        Optional<XdsConfig> xds = root.independent(() -> XdsBootstrapReader.xds(root), Optional.empty());
        ConfigWatchConfig watch = root.section("config_watch", RuntimeReader::configWatch, ConfigWatchConfig.OFF);
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


    private static String where(JsonLocation location) {
        return location == null || location.getLineNr() < 0 ? ""
                : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }
}
