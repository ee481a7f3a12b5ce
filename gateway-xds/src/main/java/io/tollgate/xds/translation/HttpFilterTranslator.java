package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.core.v3.RuntimeFractionalPercent;
import io.envoyproxy.envoy.config.route.v3.FilterConfig;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.extensions.filters.common.fault.v3.FaultDelay;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.Cors;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.ExtAuthz;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.ExtAuthzPerRoute;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.FaultAbort;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit;
import io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit;
import io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBAC;
import io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBACPerRoute;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.envoyproxy.envoy.type.v3.TokenBucket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns an HTTP connection manager's {@code http_filters} into a listener's stream filters:
 * Envoy's fault filter becomes {@code fault}, its local rate limit {@code local_rate_limit}, its
 * RBAC filter {@code rbac}, its CORS filter {@code cors}, and the router, which must come last, is
 * the route's action itself. A kind may come several times (Istio's DENY, then ALLOW RBAC filters),
 * each filter with its own settings. A filter Envoy runs disabled, or that does nothing on its own (RBAC
 * without rules, CORS, whose policies are on routes), is a disabled entry that routes enable with
 * settings of their own. {@link #perRoute} reads a route's {@code typed_per_filter_config}. Any
 * other filter, or a field the gateway's filter has no counterpart for, refuses the resource with
 * the field's path.
 */
final class HttpFilterTranslator {

    static final String ROUTER = "envoy.filters.http.router";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String SUPPORTED = "envoy.filters.http.fault, envoy.filters.http.local_ratelimit,"
            + " envoy.filters.http.rbac, envoy.filters.http.cors, envoy.filters.http.ext_authz,"
            + " envoy.filters.http.ratelimit, " + ROUTER + "; accepted as no-ops: "
            + IstioExtensions.METADATA_EXCHANGE + ", istio.alpn, envoy.filters.http.grpc_stats";

    private HttpFilterTranslator() {
    }

    /**
     * A listener's stream filters, and what each of Envoy's filters became, by Envoy's name, so
     * that routes' per-filter settings find theirs (several filters may share a name, as Istio's
     * DENY and ALLOW RBAC filters do: settings under the name are for each of them).
     *
     * @param filters the listener's {@code filters}, in order
     * @param byName what the Envoy filters but the router became, by their name, in order
     */
    record Chain(ArrayNode filters, Map<String, List<Translated>> byName) {

        /** No filter but the router. */
        static final Chain NONE = new Chain(JSON.arrayNode(), Map.of());
    }

    /** How an Envoy filter is on the listener's chain. */
    enum State {
        /** It runs on every route that does not disable it. */
        ENABLED,
        /** It runs only on the routes that give it settings ({@code disabled}, or nothing to do without route settings). */
        DISABLED,
        /** It is left out: it does nothing (a local rate limit enabled for 0 % of requests). */
        INERT
    }

    /**
     * What one Envoy filter became.
     *
     * @param name the gateway filter's name: its kind when it is the listener's one filter of that
     *     kind (so that one-of-a-kind chains read as in the configuration file), else Envoy's name
     * @param kind the gateway filter
     * @param settings its settings on the listener (without {@code name}), null when it has none
     * @param state how it is on the chain
     */
    record Translated(String name, String kind, ObjectNode settings, State state) {
    }

    /**
     * The per-route settings of one filter: the gateway filter they are for ({@code null} when
     * only the route's entry names it: a {@code FilterConfig} disabling it or enabling it), and its
     * settings, or null when the route runs without the filter, unless {@code listenerSettings}: then
     * the route runs the filter as the listener configured it.
     */
    record PerRoute(String kind, ObjectNode settings, boolean listenerSettings) {

        /** The settings of a {@code kind} filter for a route; null settings: the route runs without it. */
        PerRoute(String kind, ObjectNode settings) {
            this(kind, settings, false);
        }
    }

    /**
     * The stream filters of {@code filters} (at {@code at}), in order; empty when only the router
     * is there. Filters of one kind may repeat, each with its own settings; filters that share a
     * name must be of one kind.
     */
    static Chain translate(List<HttpFilter> filters, String at) {
        if (filters.isEmpty()) {
            throw new XdsRejection(at + ": empty (expected the filters, ending with " + ROUTER + ")");
        }
        List<Translated> read = new ArrayList<>();
        List<Integer> positions = new ArrayList<>(); // of each read filter in filters
        Map<String, Integer> firstOfName = new HashMap<>();
        for (int i = 0; i < filters.size(); i++) {
            HttpFilter filter = filters.get(i);
            String where = at + "[" + i + "]";
            Fields.allowOnly(filter, where, Set.of("name", "typed_config", "disabled"));
            boolean last = i == filters.size() - 1;
            Any config = filter.getTypedConfig();
            if (config.is(Router.class) || (!filter.hasTypedConfig() && filter.getName().equals(ROUTER))) {
                if (!last) {
                    throw new XdsRejection(where + ": the router must be the last filter");
                }
                if (filter.hasTypedConfig()) {
                    Fields.allowOnly(unpack(config, Router.class, where), where + ".typed_config", Set.of());
                }
                continue;
            }
            if (last) {
                throw new XdsRejection(where + ": '" + filter.getName() + "' is last (expected " + ROUTER + ")");
            }
            if (IstioExtensions.telemetryHttpFilter(filter, where)) {
                continue;
            }
            PerRoute entry = listenerFilter(filter, where);
            Integer earlier = firstOfName.putIfAbsent(filter.getName(), read.size());
            if (earlier != null && !read.get(earlier).kind().equals(entry.kind())) {
                throw new XdsRejection(where + ".name: '" + filter.getName() + "' also names " + at + "["
                        + positions.get(earlier) + "], a " + read.get(earlier).kind() + " filter (supported: filters"
                        + " of one name are of one"
                        + " kind, whose per-route settings apply to each)");
            }
            // Envoy's rate limit filter does nothing on a route without rate limits: routes that have them enable it.
            State state = entry.settings() == null && entry.kind().equals("local_rate_limit") ? State.INERT
                    : entry.settings() == null || filter.getDisabled()
                            || entry.kind().equals(RateLimitTranslator.KIND) ? State.DISABLED : State.ENABLED;
            read.add(new Translated(filter.getName(), entry.kind(), entry.settings(), state));
            positions.add(i);
        }
        Map<String, Long> ofKind = read.stream().filter(t -> t.state() != State.INERT)
                .collect(Collectors.groupingBy(Translated::kind, Collectors.counting()));
        ArrayNode translated = JSON.arrayNode();
        Map<String, List<Translated>> byName = new LinkedHashMap<>();
        for (Translated envoy : read) {
            String name = ofKind.getOrDefault(envoy.kind(), 0L) > 1 ? envoy.name() : envoy.kind();
            Translated filter = new Translated(name, envoy.kind(), envoy.settings(), envoy.state());
            byName.computeIfAbsent(envoy.name(), n -> new ArrayList<>()).add(filter);
            if (filter.state() == State.INERT) {
                continue;
            }
            ObjectNode node = translated.addObject().put("name", name);
            if (!name.equals(filter.kind())) {
                node.put("kind", filter.kind());
            }
            if (filter.state() == State.DISABLED) {
                node.put("disabled", true);
            } else {
                node.setAll(filter.settings());
            }
        }
        byName.replaceAll((name, list) -> List.copyOf(list));
        return new Chain(translated, Collections.unmodifiableMap(byName));
    }

    /** What one filter of the listener (not the router) is in the gateway: its kind and settings. */
    private static PerRoute listenerFilter(HttpFilter filter, String where) {
        Any config = filter.getTypedConfig();
        if (config.is(Cors.class)) {
            Fields.allowOnly(unpack(config, Cors.class, where), where + ".typed_config", Set.of());
            return new PerRoute("cors", null);
        }
        if (config.is(HTTPFault.class) && unpack(config, HTTPFault.class, where).equals(HTTPFault.getDefaultInstance())) {
            return new PerRoute("fault", null); // Istio's: faults come from routes' settings
        }
        if (config.is(HTTPFault.class) || config.is(LocalRateLimit.class) || config.is(RBAC.class)) {
            return filterSettings(config, where + ".typed_config");
        }
        if (config.is(ExtAuthz.class)) {
            return new PerRoute("ext_authz", ExtAuthzTranslator.settings(unpack(config, ExtAuthz.class, where),
                    where + ".typed_config"));
        }
        if (config.is(RateLimit.class)) {
            return new PerRoute(RateLimitTranslator.KIND, RateLimitTranslator.settings(
                    unpack(config, RateLimit.class, where), where + ".typed_config"));
        }
        throw new XdsRejection(where + ": '" + filter.getName() + "' with typed_config "
                + (filter.hasTypedConfig() ? config.getTypeUrl() : "(none)") + " not supported (supported: "
                + SUPPORTED + ")");
    }

    /**
     * The per-route settings of a {@code typed_per_filter_config} value: a {@code FilterConfig}
     * (disabling the filter, enabling it as the listener configured it, or wrapping its settings),
     * Envoy's per-route form of a supported filter ({@code RBACPerRoute}, a CORS filter's
     * {@code CorsPolicy}), or the filter's own configuration (fault, local rate limit), which
     * replaces the listener's for the route.
     */
    static PerRoute perRoute(Any config, String at) {
        if (config.is(FilterConfig.class)) {
            FilterConfig wrapper = unpack(config, FilterConfig.class, at);
            Fields.allowOnly(wrapper, at, Set.of("config", "disabled", "is_optional"));
            if (wrapper.getDisabled()) {
                return new PerRoute(wrapper.hasConfig() ? perRoute(wrapper.getConfig(), at + ".config").kind() : null,
                        null);
            }
            return wrapper.hasConfig() ? perRoute(wrapper.getConfig(), at + ".config") : new PerRoute(null, null, true);
        }
        if (config.is(RBACPerRoute.class)) {
            RBACPerRoute rbac = unpack(config, RBACPerRoute.class, at);
            Fields.allowOnly(rbac, at, Set.of("rbac"));
            return new PerRoute("rbac", rbac.hasRbac() ? RbacTranslator.settings(rbac.getRbac(), at + ".rbac") : null);
        }
        if (config.is(io.envoyproxy.envoy.extensions.filters.http.cors.v3.CorsPolicy.class)) {
            return new PerRoute("cors", CorsTranslator.settings(unpack(config,
                    io.envoyproxy.envoy.extensions.filters.http.cors.v3.CorsPolicy.class, at), at));
        }
        if (config.is(HTTPFault.class) || config.is(LocalRateLimit.class)) {
            return filterSettings(config, at);
        }
        if (config.is(ExtAuthzPerRoute.class)) {
            return ExtAuthzTranslator.perRoute(unpack(config, ExtAuthzPerRoute.class, at), at);
        }
        throw new XdsRejection(at + ": type " + config.getTypeUrl() + " not supported (supported: FilterConfig,"
                + " HTTPFault, LocalRateLimit, RBACPerRoute, CorsPolicy, ExtAuthzPerRoute)");
    }

    /** The settings of a fault, local rate limit or RBAC configuration; null settings when it does nothing. */
    private static PerRoute filterSettings(Any config, String at) {
        if (config.is(HTTPFault.class)) {
            return new PerRoute("fault", fault(unpack(config, HTTPFault.class, at), at));
        }
        if (config.is(LocalRateLimit.class)) {
            return new PerRoute("local_rate_limit", localRateLimit(unpack(config, LocalRateLimit.class, at), at));
        }
        return new PerRoute("rbac", RbacTranslator.settings(unpack(config, RBAC.class, at), at));
    }

    private static ObjectNode fault(HTTPFault fault, String at) {
        Fields.allowOnly(fault, at, Set.of("delay", "abort", "headers"));
        ObjectNode entry = JSON.objectNode();
        if (fault.hasDelay()) {
            FaultDelay delay = fault.getDelay();
            Fields.allowOnly(delay, at + ".delay", Set.of("fixed_delay", "header_delay", "percentage"));
            ObjectNode node = entry.putObject("delay");
            if (delay.hasHeaderDelay()) {
                node.put("header_delay", true);
            } else {
                node.put("fixed_delay", Fields.duration(delay.getFixedDelay()));
            }
            node.put("percentage", percentage(delay.getPercentage(), delay.hasPercentage()));
        }
        if (fault.hasAbort()) {
            FaultAbort abort = fault.getAbort();
            Fields.allowOnly(abort, at + ".abort", Set.of("http_status", "grpc_status", "header_abort", "percentage"));
            ObjectNode node = entry.putObject("abort");
            switch (abort.getErrorTypeCase()) {
                case HTTP_STATUS -> node.put("http_status", abort.getHttpStatus());
                case GRPC_STATUS -> node.put("http_status", 503).put("grpc_status", abort.getGrpcStatus());
                case HEADER_ABORT -> node.put("header_abort", true);
                default -> throw new XdsRejection(at + ".abort: needs http_status, grpc_status or header_abort");
            }
            node.put("percentage", percentage(abort.getPercentage(), abort.hasPercentage()));
        }
        if (!fault.hasDelay() && !fault.hasAbort()) {
            throw new XdsRejection(at + ": needs a delay or an abort");
        }
        if (fault.getHeadersCount() > 0) {
            ObjectNode headers = entry.putObject("headers");
            for (int i = 0; i < fault.getHeadersCount(); i++) {
                HeaderMatcher matcher = fault.getHeaders(i);
                String where = at + ".headers[" + i + "]";
                Fields.allowOnly(matcher, where, Set.of("name", "string_match"));
                Fields.allowOnly(matcher.getStringMatch(), where + ".string_match", Set.of("exact"));
                headers.put(matcher.getName().toLowerCase(java.util.Locale.ROOT), matcher.getStringMatch().getExact());
            }
        }
        return entry;
    }

    /**
     * Envoy's local rate limit applies to the share of requests {@code filter_enabled} names, 0 %
     * when absent: such a filter does nothing, so it is left out; one applied and enforced to
     * every request becomes {@code local_rate_limit}; any other share is refused.
     */
    private static ObjectNode localRateLimit(LocalRateLimit limit, String at) {
        Fields.allowOnly(limit, at, Set.of("stat_prefix", "token_bucket", "filter_enabled", "filter_enforced"));
        if (!limit.hasFilterEnabled() || zero(limit.getFilterEnabled())) {
            return null;
        }
        requireAll(limit.getFilterEnabled(), at + ".filter_enabled");
        if (!limit.hasFilterEnforced()) {
            return null;
        }
        requireAll(limit.getFilterEnforced(), at + ".filter_enforced");
        if (!limit.hasTokenBucket()) {
            throw new XdsRejection(at + ".token_bucket: required");
        }
        TokenBucket bucket = limit.getTokenBucket();
        Fields.allowOnly(bucket, at + ".token_bucket", Set.of("max_tokens", "tokens_per_fill", "fill_interval"));
        return JSON.objectNode()
                .put("max_tokens", bucket.getMaxTokens())
                .put("tokens_per_fill", bucket.hasTokensPerFill() ? bucket.getTokensPerFill().getValue() : 1)
                .put("fill_interval", Fields.duration(bucket.getFillInterval()));
    }

    private static boolean zero(RuntimeFractionalPercent percent) {
        return percent.getDefaultValue().getNumerator() == 0;
    }

    private static void requireAll(RuntimeFractionalPercent percent, String at) {
        Fields.allowOnly(percent, at, Set.of("default_value"));
        if (percentage(percent.getDefaultValue(), true) < 100) {
            throw new XdsRejection(at + ".default_value: " + percentage(percent.getDefaultValue(), true)
                    + "% (supported: 0% or 100%)");
        }
    }

    /** A fractional percent as a percentage; an absent one is all requests, as Envoy reads it. */
    static double percentage(FractionalPercent percent, boolean present) {
        if (!present) {
            return 100;
        }
        double denominator = switch (percent.getDenominator()) {
            case HUNDRED -> 100;
            case TEN_THOUSAND -> 10_000;
            case MILLION -> 1_000_000;
            default -> throw new XdsRejection("denominator " + percent.getDenominator() + " not supported");
        };
        return Math.min(100, percent.getNumerator() * 100 / denominator);
    }

    private static <T extends Message> T unpack(Any config, Class<T> type, String at) {
        try {
            return config.unpack(type);
        } catch (InvalidProtocolBufferException e) {
            throw new XdsRejection(at + ".typed_config: cannot be decoded: " + e.getMessage());
        }
    }
}
