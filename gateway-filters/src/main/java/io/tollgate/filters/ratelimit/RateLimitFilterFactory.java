package io.tollgate.filters.ratelimit;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterFactory;
import io.tollgate.filters.grpcservice.GrpcServiceSettings;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code rate_limit} stream filter: Envoy's global rate limit filter with its route's
 * {@code rate_limits} beside it. Reads {@code domain}, {@code grpc_service} ({@code target},
 * {@code timeout}), {@code rate_limits} (each {@code actions}: {@code generic_key},
 * {@code request_headers}, {@code remote_address}, {@code rpc_service}, {@code rpc_method}),
 * {@code failure_mode_deny}, {@code rate_limited_status} and {@code enable_x_ratelimit_headers};
 * see docs/filters.md.
 */
public final class RateLimitFilterFactory implements StreamFilterFactory {

    @Override
    public String name() {
        return "rate_limit";
    }

    @Override
    public Set<String> keys() {
        return Set.of("domain", "grpc_service", "rate_limits", "failure_mode_deny", "rate_limited_status",
                "enable_x_ratelimit_headers");
    }

    @Override
    public StreamFilterConfig parse(ConfigNode node, StreamFilterConfig base) {
        String domain = node.string("domain");
        if (domain.isBlank()) {
            throw node.child("domain").error("empty");
        }
        GrpcServiceSettings service = GrpcServiceSettings.parse(node.required("grpc_service"),
                RateLimitSettings.DEFAULT_TIMEOUT);
        List<List<RateLimitAction>> rateLimits = node.list("rate_limits", RateLimitFilterFactory::rateLimit);
        if (rateLimits.isEmpty()) {
            throw node.child("rate_limits").error("required: at least one descriptor's actions");
        }
        return base.withSettings(new RateLimitSettings(service, domain, rateLimits,
                node.bool("failure_mode_deny", false), node.integer("rate_limited_status", 429, 400, 599),
                node.bool("enable_x_ratelimit_headers", false)));
    }

    private static List<RateLimitAction> rateLimit(ConfigNode node) {
        node.allowOnly(Set.of("actions"));
        List<RateLimitAction> actions = node.list("actions", RateLimitFilterFactory::action);
        if (actions.isEmpty()) {
            throw node.child("actions").error("required: at least one action");
        }
        return List.copyOf(actions);
    }

    private static RateLimitAction action(ConfigNode node) {
        List<String> kinds = node.keys();
        if (kinds.size() != 1) {
            throw node.error("must name exactly one action of generic_key, request_headers, remote_address,"
                    + " rpc_service, rpc_method");
        }
        String kind = kinds.get(0);
        ConfigNode action = node.child(kind);
        return switch (kind) {
            case "generic_key" -> {
                action.allowOnly(Set.of("descriptor_key", "descriptor_value"));
                yield new RateLimitAction.GenericKey(action.string("descriptor_key", "generic_key"),
                        action.string("descriptor_value"));
            }
            case "request_headers" -> {
                action.allowOnly(Set.of("header_name", "descriptor_key", "skip_if_absent"));
                yield new RateLimitAction.RequestHeader(action.string("header_name").toLowerCase(Locale.ROOT),
                        action.string("descriptor_key"), action.bool("skip_if_absent", false));
            }
            case "remote_address" -> {
                action.allowOnly(Set.of());
                yield new RateLimitAction.RemoteAddress();
            }
            case "rpc_service" -> {
                action.allowOnly(Set.of("descriptor_key"));
                yield new RateLimitAction.RpcService(action.string("descriptor_key", "rpc_service"));
            }
            case "rpc_method" -> {
                action.allowOnly(Set.of("descriptor_key"));
                yield new RateLimitAction.RpcMethod(action.string("descriptor_key", "rpc_method"));
            }
            default -> throw node.child(kind).error("unknown action (supported: generic_key, request_headers,"
                    + " remote_address, rpc_service, rpc_method)");
        };
    }

    @Override
    public StreamFilter create(StreamFilterConfig config, FilterScope scope) {
        return new RateLimitFilter(config.settings(RateLimitSettings.class), scope);
    }
}
