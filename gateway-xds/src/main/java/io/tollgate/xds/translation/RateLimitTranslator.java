package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.envoyproxy.envoy.config.ratelimit.v3.RateLimitServiceConfig;
import io.envoyproxy.envoy.config.route.v3.RateLimit;
import io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit.XRateLimitHeadersRFCVersion;
import java.util.List;
import java.util.Set;

/**
 * Turns Envoy's {@code envoy.filters.http.ratelimit} and the {@code rate_limits} of routes and
 * virtual hosts into the gateway's {@code rate_limit} filter. Envoy's filter does nothing on a
 * route without rate limits, so on the listener it is a disabled entry holding the filter's
 * settings (domain, the service, timeout, failure mode, status, headers); a route with
 * {@code rate_limits} (its own, else its virtual host's, as Envoy's default) runs it with those
 * settings and its descriptors' actions ({@code generic_key}, {@code request_headers},
 * {@code remote_address}). A field the gateway has no counterpart for refuses the resource.
 */
final class RateLimitTranslator {

    /** The kind of the gateway's filter. */
    static final String KIND = "rate_limit";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** Envoy's default timeout of the filter's call. */
    private static final com.google.protobuf.Duration DEFAULT_TIMEOUT =
            com.google.protobuf.Duration.newBuilder().setNanos(20_000_000).build();

    private RateLimitTranslator() {
    }

    /** The listener's settings of {@code filter}, without descriptors. */
    static ObjectNode settings(io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit filter, String at) {
        Fields.allowOnly(filter, at, Set.of("domain", "timeout", "failure_mode_deny", "rate_limit_service",
                "enable_x_ratelimit_headers", "rate_limited_status", "stat_prefix"));
        if (!filter.hasRateLimitService()) {
            throw new XdsRejection(at + ".rate_limit_service: required");
        }
        RateLimitServiceConfig service = filter.getRateLimitService();
        Fields.allowOnly(service, at + ".rate_limit_service", Set.of("grpc_service", "transport_api_version"));
        ObjectNode settings = JSON.objectNode().put("domain", filter.getDomain());
        settings.set("grpc_service", GrpcServiceTranslator.grpcService(service.getGrpcService(),
                filter.hasTimeout() ? filter.getTimeout() : DEFAULT_TIMEOUT, at + ".rate_limit_service.grpc_service"));
        if (filter.getFailureModeDeny()) {
            settings.put("failure_mode_deny", true);
        }
        if (filter.getEnableXRatelimitHeaders() == XRateLimitHeadersRFCVersion.DRAFT_VERSION_03) {
            settings.put("enable_x_ratelimit_headers", true);
        }
        if (filter.hasRateLimitedStatus() && filter.getRateLimitedStatus().getCodeValue() != 0) {
            settings.put("rate_limited_status", filter.getRateLimitedStatus().getCodeValue());
        }
        return settings;
    }

    /** The {@code rate_limits} of a route or virtual host, as the filter's {@code rate_limits} key. */
    static ObjectNode rateLimits(List<RateLimit> limits, String at) {
        ObjectNode settings = JSON.objectNode();
        ArrayNode translated = settings.putArray("rate_limits");
        for (int i = 0; i < limits.size(); i++) {
            RateLimit limit = limits.get(i);
            String where = at + "[" + i + "]";
            Fields.allowOnly(limit, where, Set.of("actions"));
            ArrayNode actions = translated.addObject().putArray("actions");
            for (int j = 0; j < limit.getActionsCount(); j++) {
                actions.add(action(limit.getActions(j), where + ".actions[" + j + "]"));
            }
        }
        return settings;
    }

    /** A route's settings of the listener's filter: {@code listener}'s, with the route's {@link #rateLimits}. */
    static ObjectNode withRateLimits(JsonNode listener, JsonNode rateLimits) {
        ObjectNode settings = listener.deepCopy();
        settings.setAll((ObjectNode) rateLimits);
        return settings;
    }

    private static ObjectNode action(RateLimit.Action action, String at) {
        Fields.allowOnly(action, at, Set.of("generic_key", "request_headers", "remote_address"));
        ObjectNode node = JSON.objectNode();
        switch (action.getActionSpecifierCase()) {
            case GENERIC_KEY -> {
                RateLimit.Action.GenericKey key = action.getGenericKey();
                Fields.allowOnly(key, at + ".generic_key", Set.of("descriptor_value", "descriptor_key"));
                ObjectNode generic = node.putObject("generic_key").put("descriptor_value", key.getDescriptorValue());
                if (!key.getDescriptorKey().isEmpty()) {
                    generic.put("descriptor_key", key.getDescriptorKey());
                }
            }
            case REQUEST_HEADERS -> {
                RateLimit.Action.RequestHeaders headers = action.getRequestHeaders();
                Fields.allowOnly(headers, at + ".request_headers",
                        Set.of("header_name", "descriptor_key", "skip_if_absent"));
                node.putObject("request_headers").put("header_name", headers.getHeaderName())
                        .put("descriptor_key", headers.getDescriptorKey())
                        .put("skip_if_absent", headers.getSkipIfAbsent());
            }
            case REMOTE_ADDRESS -> node.putObject("remote_address");
            default -> throw new XdsRejection(at + ": needs one of generic_key, request_headers, remote_address");
        }
        return node;
    }
}
