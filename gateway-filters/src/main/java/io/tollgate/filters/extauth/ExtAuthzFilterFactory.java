package io.tollgate.filters.extauth;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterFactory;
import io.tollgate.filters.grpcservice.GrpcServiceSettings;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code ext_authz} stream filter: Envoy's external authorization. Reads exactly one of
 * {@code grpc_service} ({@code target}, {@code timeout}) and {@code http_service}
 * ({@code server_uri}, {@code path_prefix}, {@code timeout}, {@code allowed_upstream_headers},
 * {@code allowed_client_headers}, {@code allowed_client_headers_on_success}), and
 * {@code failure_mode_allow}, {@code status_on_error}, {@code allowed_headers},
 * {@code context_extensions}; see docs/filters.md.
 */
public final class ExtAuthzFilterFactory implements StreamFilterFactory {

    /** The most of a request's body a check may carry (the body is held in memory while the check runs). */
    static final int MAX_REQUEST_BYTES = 16 * 1024 * 1024;

    @Override
    public String name() {
        return "ext_authz";
    }

    @Override
    public Set<String> keys() {
        return Set.of("grpc_service", "http_service", "failure_mode_allow", "status_on_error", "allowed_headers",
                "context_extensions", "with_request_body");
    }

    @Override
    public StreamFilterConfig parse(ConfigNode node, StreamFilterConfig base) {
        if (node.has("grpc_service") == node.has("http_service")) {
            throw node.error("must give exactly one of grpc_service, http_service");
        }
        GrpcServiceSettings grpc = node.optional("grpc_service")
                .map(n -> GrpcServiceSettings.parse(n, ExtAuthzSettings.DEFAULT_TIMEOUT)).orElse(null);
        ExtAuthzSettings.HttpServiceSettings http = node.optional("http_service")
                .map(ExtAuthzFilterFactory::httpService).orElse(null);
        Set<String> allowed = node.has("allowed_headers") ? names(node, "allowed_headers") : null;
        return base.withSettings(new ExtAuthzSettings(grpc, http, node.bool("failure_mode_allow", false),
                node.integer("status_on_error", 403, 200, 599), allowed,
                node.has("context_extensions") ? Map.copyOf(node.stringMap("context_extensions")) : Map.of(),
                node.optional("with_request_body").map(ExtAuthzFilterFactory::withRequestBody).orElse(null)));
    }

    private static ExtAuthzSettings.BodySettings withRequestBody(ConfigNode node) {
        node.allowOnly(Set.of("max_request_bytes", "allow_partial_message", "pack_as_bytes"));
        if (!node.has("max_request_bytes")) {
            throw node.error("needs max_request_bytes");
        }
        return new ExtAuthzSettings.BodySettings(node.integer("max_request_bytes", 0, 1, MAX_REQUEST_BYTES),
                node.bool("allow_partial_message", false), node.bool("pack_as_bytes", false));
    }

    private static ExtAuthzSettings.HttpServiceSettings httpService(ConfigNode node) {
        node.allowOnly(Set.of("server_uri", "path_prefix", "timeout", "allowed_upstream_headers",
                "allowed_client_headers", "allowed_client_headers_on_success"));
        URI uri;
        try {
            uri = URI.create(node.string("server_uri"));
        } catch (IllegalArgumentException e) {
            throw node.child("server_uri").error("not a URI: " + e.getMessage());
        }
        if (!"http".equals(uri.getScheme()) || uri.getHost() == null || uri.getRawQuery() != null) {
            throw node.child("server_uri").error("'" + uri + "' (expected http://host:port without a query)");
        }
        String prefix = node.string("path_prefix", "");
        if (!prefix.isEmpty() && (!prefix.startsWith("/") || prefix.endsWith("/"))) {
            throw node.child("path_prefix").error("'" + prefix + "' (expected to start with / and not end with /)");
        }
        return new ExtAuthzSettings.HttpServiceSettings(uri, prefix,
                node.positiveDuration("timeout", ExtAuthzSettings.DEFAULT_TIMEOUT),
                node.has("allowed_upstream_headers") ? names(node, "allowed_upstream_headers") : Set.of(),
                node.has("allowed_client_headers") ? names(node, "allowed_client_headers") : null,
                node.has("allowed_client_headers_on_success") ? names(node, "allowed_client_headers_on_success")
                        : Set.of());
    }

    /** A list of header names, lower case, in order. */
    private static Set<String> names(ConfigNode node, String key) {
        List<String> names = node.list(key, n -> n.asString().toLowerCase(Locale.ROOT));
        return Set.copyOf(new LinkedHashSet<>(names));
    }

    @Override
    public StreamFilter create(StreamFilterConfig config, FilterScope scope) {
        ExtAuthzSettings settings = config.settings(ExtAuthzSettings.class);
        AuthzService service = settings.grpcService() != null
                ? new GrpcAuthzService(settings.grpcService(), settings)
                : new HttpAuthzService(settings.httpService(), settings);
        return new ExtAuthzFilter(settings, service, scope);
    }
}
