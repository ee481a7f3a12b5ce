package io.tollgate.core.config.read;

import io.tollgate.core.config.AccessLogConfig;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.ConnectionLimits;
import io.tollgate.core.config.Http2Options;
import io.tollgate.core.config.HttpOptions;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.NetworkFilterEntry;
import io.tollgate.core.config.ProtocolOptions;
import io.tollgate.core.config.PathNormalization;
import io.tollgate.core.config.ProxyProtocolConfig;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.extension.ProtocolFactory;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a listener: its address, the protocols it serves with each protocol's own options (an
 * extension found by name), HTTP and HTTP/2 limits, TLS, connection limits and the PROXY
 * protocol; its filters, access log and routes come from their own readers. A listener from xDS
 * is read by the same rules.
 */
final class ListenerReader {

    private ListenerReader() {
    }

    static ListenerConfig listener(ConfigNode n, ExtensionRegistry extensions) {
        Set<String> keys = new HashSet<>(Set.of("name", "address", "port", "protocols", "route_config", "http",
                "http2", "access_log", "tls", "protocol_detection_timeout", "max_connections", "filters",
                "network_filters", "proxy_protocol", "transparent"));
        keys.addAll(extensions.names(ProtocolOptions.class));
        n.allowOnly(keys);
        List<NetworkFilterEntry> networkFilters = FilterReader.networkFilters(n, extensions);
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
        HttpOptions http = n.optional("http").map(ListenerReader::httpOptions).orElse(HttpOptions.DEFAULTS);
        AccessLogConfig accessLog = n.optional("access_log").map(FilterReader::accessLog).orElse(AccessLogConfig.DISABLED);
        List<StreamFilterConfig> filters = FilterReader.streamFilters(n, extensions);
        return new ListenerConfig(
                n.string("name"),
                n.string("address", "127.0.0.1"),
                n.integer("port", 0, 0, 65535),
                protocols,
                tcp ? new RouteConfig(List.of()) : n.independent(() -> RouteReader.routeConfig(
                        n.required("route_config"), new RouteFilterOverrides(filters, extensions)),
                        new RouteConfig(List.of())),
                http,
                accessLog,
                protocolOptions,
                n.optional("http2").map(ListenerReader::http2Options).orElse(Http2Options.DEFAULTS),
                TlsReader.listener(n, protocols),
                new ConnectionLimits(
                        n.positiveDuration("protocol_detection_timeout", ConnectionLimits.DEFAULT_PROTOCOL_DETECTION_TIMEOUT),
                        n.integer("max_connections", 0, 0, Integer.MAX_VALUE)),
                filters,
                networkFilters,
                ProxyProtocolConfig.parse(n),
                n.bool("transparent", false));
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
                n.positiveDuration("reset_window", d.resetWindow()),
                n.integer("max_queued_control_frames", d.maxQueuedControlFrames(), 1, 1_000_000),
                n.integer("max_small_continuation_frames", d.maxSmallContinuationFrames(), 1, 1_000_000),
                n.positiveDuration("window_hold_timeout", d.windowHoldTimeout()),
                n.positiveDuration("first_frame_timeout", d.firstFrameTimeout()));
    }

    private static HttpOptions httpOptions(ConfigNode n) {
        n.allowOnly(Set.of("max_initial_line_bytes", "max_header_bytes", "max_request_body_bytes",
                "idle_timeout", "request_headers_timeout", "normalize_path", "merge_slashes",
                "path_with_escaped_slashes_action"));
        HttpOptions d = HttpOptions.DEFAULTS;
        return new HttpOptions(
                n.integer("max_initial_line_bytes", d.maxInitialLineBytes(), 256, 1 << 20),
                n.integer("max_header_bytes", d.maxHeaderBytes(), 1024, 1 << 24),
                n.longValue("max_request_body_bytes", d.maxRequestBodyBytes(), 0, Long.MAX_VALUE),
                n.positiveDuration("idle_timeout", d.idleTimeout()),
                n.positiveDuration("request_headers_timeout", d.requestHeadersTimeout()),
                new PathNormalization(n.bool("normalize_path", false), n.bool("merge_slashes", false),
                        escapedSlashes(n)));
    }

    /** {@code path_with_escaped_slashes_action}: an action's name in lower case, {@code keep_unchanged} by default. */
    private static PathNormalization.EscapedSlashes escapedSlashes(ConfigNode n) {
        String action = n.string("path_with_escaped_slashes_action", "keep_unchanged");
        for (PathNormalization.EscapedSlashes value : PathNormalization.EscapedSlashes.values()) {
            if (value.name().toLowerCase(Locale.ROOT).equals(action)) {
                return value;
            }
        }
        throw n.child("path_with_escaped_slashes_action").error("'" + action + "' (expected: keep_unchanged,"
                + " reject_request, unescape_and_redirect or unescape_and_forward)");
    }
}
