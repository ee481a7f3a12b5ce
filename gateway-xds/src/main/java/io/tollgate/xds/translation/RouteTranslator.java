package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.core.v3.DataSource;
import io.envoyproxy.envoy.config.route.v3.DirectResponseAction;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.QueryParameterMatcher;
import io.envoyproxy.envoy.config.route.v3.RedirectAction;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.extension.ExtensionRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns an Envoy {@code RouteConfiguration} (from RDS, or inline in a listener) into the
 * gateway's virtual hosts and routes, through the same checks as the configuration file's.
 */
final class RouteTranslator {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** What a route timeout of 0s (none, in Envoy) becomes. */
    static final String NO_TIMEOUT = "24h";
    private static final Map<RedirectAction.RedirectResponseCode, Integer> REDIRECT_CODES = Map.of(
            RedirectAction.RedirectResponseCode.MOVED_PERMANENTLY, 301, RedirectAction.RedirectResponseCode.FOUND, 302,
            RedirectAction.RedirectResponseCode.SEE_OTHER, 303, RedirectAction.RedirectResponseCode.TEMPORARY_REDIRECT, 307,
            RedirectAction.RedirectResponseCode.PERMANENT_REDIRECT, 308);

    private RouteTranslator() {
    }

    /**
     * A route configuration as received, validated on its own: the routes every listener serves
     * when no route has settings for the listener's filters, and else the tree whose settings
     * {@link #forListener} resolves for each listener that names it.
     *
     * @param config the routes, without settings for filters
     * @param tree the routes as the file writes them, with the settings for filters of {@link FilterOverrides}; null when there are none
     */
    record Translated(RouteConfig config, ObjectNode tree) {

        /** Routes with no settings for filters. */
        Translated(RouteConfig config) {
            this(config, null);
        }

        /**
         * The routes and the stream filters of a listener whose HTTP filters are {@code chain}
         * ({@code listener} names it), with the listener's {@code filters} {@code base}.
         */
        Served forListener(HttpFilterTranslator.Chain chain, List<StreamFilterConfig> base, ExtensionRegistry extensions,
                String listener) {
            if (tree == null) {
                return new Served(config, base);
            }
            FilterOverrides.Resolved resolved = FilterOverrides.resolve(tree, chain, listener);
            try {
                List<StreamFilterConfig> filters = new ArrayList<>(base);
                if (resolved.mirrors()) {
                    filters.add(FilterOverrides.DISABLED_MIRROR);
                }
                return new Served(ConfigLoader.routeConfig(resolved.routeConfig(), "", filters, extensions), filters);
            } catch (ConfigException | IllegalArgumentException e) {
                throw new XdsRejection(listener + " with " + e.getMessage());
            }
        }
    }

    /** What a listener serves: its routes, and its stream filters for them. */
    record Served(RouteConfig routes, List<StreamFilterConfig> filters) {
    }

    /** A route configuration of an RDS response, validated on its own. */
    static Translated translate(RouteConfiguration routes) {
        String at = "RouteConfiguration '" + routes.getName() + "'";
        ObjectNode tree = routeConfig(routes, at);
        try {
            RouteConfig plain = ConfigLoader.routeConfig(FilterOverrides.strip(tree), "");
            return new Translated(plain, FilterOverrides.any(tree) ? tree : null);
        } catch (ConfigException | IllegalArgumentException e) {
            throw new XdsRejection(at + ": " + e.getMessage());
        }
    }

    /** {@code routes} as the configuration file writes a {@code route_config}. */
    static ObjectNode routeConfig(RouteConfiguration routes, String at) {
        // ignore_port_in_host_matching: the gateway matches the Host header without its port always.
        Fields.allowOnly(routes, at, Set.of("name", "virtual_hosts", "request_headers_to_add",
                "request_headers_to_remove", "response_headers_to_add", "response_headers_to_remove",
                "typed_per_filter_config", "validate_clusters", "ignore_port_in_host_matching",
                "max_direct_response_body_size_bytes"));
        if (routes.hasValidateClusters() && routes.getValidateClusters().getValue()) {
            throw new XdsRejection(at + ".validate_clusters: true not supported (supported: false, Envoy's default"
                    + " for routes from RDS: a route naming an unknown cluster answers 503)");
        }
        long maxBody = routes.hasMaxDirectResponseBodySizeBytes()
                ? Integer.toUnsignedLong(routes.getMaxDirectResponseBodySizeBytes().getValue()) : Long.MAX_VALUE;
        HeaderMutations outer = HeaderMutations.of(routes.getRequestHeadersToAddList(),
                routes.getRequestHeadersToRemoveList(), routes.getResponseHeadersToAddList(),
                routes.getResponseHeadersToRemoveList(), at);
        ObjectNode tree = NODES.objectNode();
        ArrayNode hosts = tree.putArray("virtual_hosts");
        for (int v = 0; v < routes.getVirtualHostsCount(); v++) {
            VirtualHost host = routes.getVirtualHosts(v);
            String where = at + ".virtual_hosts[" + v + "]";
            Fields.allowOnly(host, where, Set.of("name", "domains", "routes", "request_headers_to_add",
                    "request_headers_to_remove", "response_headers_to_add", "response_headers_to_remove",
                    "typed_per_filter_config", "cors", "rate_limits", "include_request_attempt_count"));
            if (host.getIncludeRequestAttemptCount()) {
                IstioExtensions.accepted("virtual host include_request_attempt_count", "would tell upstreams the"
                        + " attempt's number in x-envoy-attempt-count, which the gateway does not send");
            }
            // Envoy applies the route's mutations, then the virtual host's, then the configuration's.
            HeaderMutations enclosing = HeaderMutations.of(host.getRequestHeadersToAddList(),
                    host.getRequestHeadersToRemoveList(), host.getResponseHeadersToAddList(),
                    host.getResponseHeadersToRemoveList(), where).then(outer);
            ObjectNode h = hosts.addObject().put("name", host.getName());
            host.getDomainsList().forEach(h.putArray("domains")::add);
            ArrayNode list = h.putArray("routes");
            for (int r = 0; r < host.getRoutesCount(); r++) {
                ObjectNode route = route(host.getRoutes(r), where + ".routes[" + r + "]", enclosing, maxBody);
                perFilter(route, "route_configuration", routes.getTypedPerFilterConfigMap(), at);
                perFilter(route, "virtual_host", host.getTypedPerFilterConfigMap(), where);
                if (host.hasCors()) {
                    FilterOverrides.put(route, "virtual_host", FilterOverrides.CORS, new HttpFilterTranslator.PerRoute(
                            "cors", CorsTranslator.settings(host.getCors(), where + ".cors")), where + ".cors");
                }
                if (host.getRateLimitsCount() > 0) {
                    String limits = where + ".rate_limits";
                    FilterOverrides.put(route, "virtual_host", FilterOverrides.RATE_LIMITS,
                            new HttpFilterTranslator.PerRoute(RateLimitTranslator.KIND,
                                    RateLimitTranslator.rateLimits(host.getRateLimitsList(), limits)), limits);
                }
                list.add(route);
            }
        }
        return tree;
    }

    private static ObjectNode route(Route route, String at, HeaderMutations enclosing, long maxBody) {
        Fields.allowOnly(route, at, Set.of("name", "match", "route", "direct_response", "redirect",
                "request_headers_to_add", "request_headers_to_remove", "response_headers_to_add",
                "response_headers_to_remove", "typed_per_filter_config", "metadata", "decorator"));
        if (route.hasMetadata()) {
            IstioExtensions.telemetryMetadata(route.getMetadata(), at + ".metadata");
        }
        if (route.hasDecorator()) {
            Fields.allowOnly(route.getDecorator(), at + ".decorator", Set.of("operation", "propagate"));
            IstioExtensions.accepted("route decorator", "names the span of a tracer that is not configured");
        }
        ObjectNode tree = NODES.objectNode().put("name", route.getName());
        tree.set("match", match(route.getMatch(), at + ".match"));
        HeaderMutations.of(route.getRequestHeadersToAddList(), route.getRequestHeadersToRemoveList(),
                route.getResponseHeadersToAddList(), route.getResponseHeadersToRemoveList(), at).then(enclosing)
                .writeTo(tree);
        perFilter(tree, "route", route.getTypedPerFilterConfigMap(), at);
        if (route.hasRoute()) {
            tree.set("route", action(route.getRoute(), at + ".route"));
            routeFilters(route.getRoute(), at + ".route", tree);
        } else if (route.hasRedirect()) {
            tree.set("redirect", redirect(route.getRedirect(), at + ".redirect"));
        } else if (route.hasDirectResponse()) {
            DirectResponseAction direct = route.getDirectResponse();
            Fields.allowOnly(direct, at + ".direct_response", Set.of("status", "body"));
            ObjectNode d = tree.putObject("direct_response").put("status", direct.getStatus());
            if (direct.hasBody()) {
                DataSource body = direct.getBody();
                Fields.allowOnly(body, at + ".direct_response.body", Set.of("inline_string"));
                if (body.getInlineString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > maxBody) {
                    throw new XdsRejection(at + ".direct_response.body: longer than the route configuration's"
                            + " max_direct_response_body_size_bytes, " + maxBody);
                }
                d.put("body", body.getInlineString());
            }
        } else {
            throw new XdsRejection(at + ": needs route, redirect or direct_response");
        }
        return tree;
    }

    private static ObjectNode match(RouteMatch match, String at) {
        Fields.allowOnly(match, at, Set.of("prefix", "path", "safe_regex", "headers", "query_parameters",
                "case_sensitive"));
        if (match.hasCaseSensitive() && !match.getCaseSensitive().getValue()) {
            throw new XdsRejection(at + ".case_sensitive: not supported with false (supported: true, paths match"
                    + " case-sensitively)");
        }
        ObjectNode tree = NODES.objectNode();
        switch (match.getPathSpecifierCase()) {
            case PREFIX -> tree.put("prefix", match.getPrefix());
            case PATH -> tree.put("path", match.getPath());
            case SAFE_REGEX -> tree.put("regex", regex(match.getSafeRegex(), at + ".safe_regex"));
            default -> throw new XdsRejection(at + ": needs prefix, path or safe_regex");
        }
        ArrayNode headers = tree.putArray("headers");
        for (int i = 0; i < match.getHeadersCount(); i++) {
            headers.add(header(match.getHeaders(i), at + ".headers[" + i + "]"));
        }
        ArrayNode query = tree.putArray("query_parameters");
        for (int i = 0; i < match.getQueryParametersCount(); i++) {
            QueryParameterMatcher q = match.getQueryParameters(i);
            String where = at + ".query_parameters[" + i + "]";
            Fields.allowOnly(q, where, Set.of("name", "string_match", "present_match"));
            ObjectNode m = query.addObject().put("name", q.getName());
            if (q.hasStringMatch()) {
                stringMatch(q.getStringMatch(), where + ".string_match", m);
            } else {
                m.put("present", q.getPresentMatch());
            }
        }
        return tree;
    }

    static ObjectNode header(HeaderMatcher header, String at) {
        Fields.allowOnly(header, at, Set.of("name", "exact_match", "safe_regex_match", "present_match", "string_match",
                "invert_match"));
        ObjectNode tree = NODES.objectNode().put("name", header.getName());
        switch (header.getHeaderMatchSpecifierCase()) {
            case EXACT_MATCH -> tree.put("exact", header.getExactMatch());
            case SAFE_REGEX_MATCH -> tree.put("regex", regex(header.getSafeRegexMatch(), at + ".safe_regex_match"));
            case PRESENT_MATCH -> tree.put("present", header.getPresentMatch());
            case STRING_MATCH -> stringMatch(header.getStringMatch(), at + ".string_match", tree);
            default -> throw new XdsRejection(at + ": needs exact_match, safe_regex_match, present_match or string_match");
        }
        if (header.getInvertMatch()) {
            tree.put("invert", true);
        }
        return tree;
    }

    static void stringMatch(StringMatcher matcher, String at, ObjectNode tree) {
        Fields.allowOnly(matcher, at, Set.of("exact", "safe_regex"));
        switch (matcher.getMatchPatternCase()) {
            case EXACT -> tree.put("exact", matcher.getExact());
            case SAFE_REGEX -> tree.put("regex", regex(matcher.getSafeRegex(), at + ".safe_regex"));
            default -> throw new XdsRejection(at + ": needs exact or safe_regex");
        }
    }

    static String regex(RegexMatcher regex, String at) {
        Fields.allowOnly(regex, at, Set.of("regex", "google_re2"));
        return regex.getRegex();
    }

    private static ObjectNode action(RouteAction action, String at) {
        Fields.allowOnly(action, at, Set.of("cluster", "weighted_clusters", "prefix_rewrite", "host_rewrite_literal",
                "timeout", "retry_policy", "metadata_match", "hash_policy", "cors", "request_mirror_policies",
                "rate_limits", "max_grpc_timeout"));
        ObjectNode tree = NODES.objectNode();
        switch (action.getClusterSpecifierCase()) {
            case CLUSTER -> tree.put("cluster", action.getCluster());
            case WEIGHTED_CLUSTERS -> tree.set("weighted_clusters", weightedClusters(action.getWeightedClusters(), at));
            default -> throw new XdsRejection(at + ": needs cluster or weighted_clusters");
        }
        if (!action.getPrefixRewrite().isEmpty()) {
            tree.put("prefix_rewrite", action.getPrefixRewrite());
        }
        if (!action.getHostRewriteLiteral().isEmpty()) {
            tree.put("host_rewrite", action.getHostRewriteLiteral());
        }
        if (action.hasTimeout()) {
            tree.put("timeout", timeout(action.getTimeout()));
        }
        if (action.hasMaxGrpcTimeout()) {
            tree.put("max_grpc_timeout", timeout(action.getMaxGrpcTimeout()));
        }
        if (action.hasMetadataMatch()) {
            tree.set("metadata_match", SubsetTranslator.lbMetadata(action.getMetadataMatch(), at + ".metadata_match"));
        }
        if (action.hasRetryPolicy()) {
            tree.set("retry_policy", retryPolicy(action.getRetryPolicy(), at + ".retry_policy"));
        }
        if (action.getHashPolicyCount() > 0) {
            ArrayNode policies = tree.putArray("hash_policy");
            for (int i = 0; i < action.getHashPolicyCount(); i++) {
                policies.add(hashPolicy(action.getHashPolicy(i), at + ".hash_policy[" + i + "]"));
            }
        }
        return tree;
    }

    /**
     * A route timeout: Envoy's 0s, no timeout (Istio's default), becomes {@link #NO_TIMEOUT}, as the
     * gateway bounds every exchange.
     */
    private static String timeout(com.google.protobuf.Duration timeout) {
        return timeout.getSeconds() == 0 && timeout.getNanos() == 0 ? NO_TIMEOUT : Fields.duration(timeout);
    }

    /** Records the settings of {@code configs} (a {@code typed_per_filter_config} at {@code at}) in {@code route}'s tree at {@code level}. */
    private static void perFilter(ObjectNode route, String level, Map<String, Any> configs, String at) {
        new TreeMap<>(configs).forEach((name, config) -> {
            String where = at + ".typed_per_filter_config['" + name + "']";
            FilterOverrides.put(route, level, name, HttpFilterTranslator.perRoute(config, where), where);
        });
    }

    /** The route action's settings for filters: its deprecated {@code cors} and its {@code request_mirror_policies}. */
    private static void routeFilters(RouteAction action, String at, ObjectNode route) {
        if (action.hasCors()) {
            FilterOverrides.put(route, "route", FilterOverrides.CORS, new HttpFilterTranslator.PerRoute("cors",
                    CorsTranslator.settings(action.getCors(), at + ".cors")), at + ".cors");
        }
        if (action.getRateLimitsCount() > 0) {
            FilterOverrides.put(route, "route", FilterOverrides.RATE_LIMITS, new HttpFilterTranslator.PerRoute(
                    RateLimitTranslator.KIND, RateLimitTranslator.rateLimits(action.getRateLimitsList(),
                            at + ".rate_limits")), at + ".rate_limits");
        }
        if (action.getRequestMirrorPoliciesCount() == 0) {
            return;
        }
        String where = at + ".request_mirror_policies";
        if (action.getRequestMirrorPoliciesCount() > 1) {
            throw new XdsRejection(where + ": " + action.getRequestMirrorPoliciesCount()
                    + " policies (supported: one)");
        }
        RouteAction.RequestMirrorPolicy mirror = action.getRequestMirrorPolicies(0);
        Fields.allowOnly(mirror, where + "[0]", Set.of("cluster", "runtime_fraction"));
        if (mirror.getCluster().isEmpty()) {
            throw new XdsRejection(where + "[0].cluster: required");
        }
        ObjectNode settings = NODES.objectNode().put("cluster", mirror.getCluster());
        if (mirror.hasRuntimeFraction()) {
            Fields.allowOnly(mirror.getRuntimeFraction(), where + "[0].runtime_fraction", Set.of("default_value"));
            settings.put("percent", HttpFilterTranslator.percentage(mirror.getRuntimeFraction().getDefaultValue(), true));
        }
        FilterOverrides.put(route, "route", FilterOverrides.MIRROR, new HttpFilterTranslator.PerRoute("mirror", settings),
                where + "[0]");
    }

    /** One hash policy as the file writes it: {@code header}, {@code cookie} or {@code source_ip}. */
    private static ObjectNode hashPolicy(RouteAction.HashPolicy policy, String at) {
        Fields.allowOnly(policy, at, Set.of("header", "cookie", "connection_properties", "terminal"));
        ObjectNode tree = NODES.objectNode();
        switch (policy.getPolicySpecifierCase()) {
            case HEADER -> {
                Fields.allowOnly(policy.getHeader(), at + ".header", Set.of("header_name"));
                tree.put("header", policy.getHeader().getHeaderName());
            }
            case COOKIE -> {
                Fields.allowOnly(policy.getCookie(), at + ".cookie", Set.of("name"));
                tree.put("cookie", policy.getCookie().getName());
            }
            case CONNECTION_PROPERTIES -> {
                Fields.allowOnly(policy.getConnectionProperties(), at + ".connection_properties", Set.of("source_ip"));
                tree.put("source_ip", policy.getConnectionProperties().getSourceIp());
            }
            default -> throw new XdsRejection(at + ": needs header, cookie or connection_properties");
        }
        if (policy.getTerminal()) {
            tree.put("terminal", true);
        }
        return tree;
    }

    /** A redirect as the file writes it. */
    private static ObjectNode redirect(RedirectAction redirect, String at) {
        Fields.allowOnly(redirect, at, Set.of("https_redirect", "scheme_redirect", "host_redirect", "port_redirect",
                "path_redirect", "prefix_rewrite", "response_code", "strip_query"));
        ObjectNode tree = NODES.objectNode();
        switch (redirect.getSchemeRewriteSpecifierCase()) {
            case HTTPS_REDIRECT -> {
                if (redirect.getHttpsRedirect()) {
                    tree.put("scheme", "https");
                }
            }
            case SCHEME_REDIRECT -> tree.put("scheme", redirect.getSchemeRedirect());
            default -> {
            }
        }
        if (!redirect.getHostRedirect().isEmpty()) {
            tree.put("host", redirect.getHostRedirect());
        }
        if (redirect.getPortRedirect() != 0) {
            tree.put("port", redirect.getPortRedirect());
        }
        switch (redirect.getPathRewriteSpecifierCase()) {
            case PATH_REDIRECT -> tree.put("path", redirect.getPathRedirect());
            case PREFIX_REWRITE -> tree.put("prefix_rewrite", redirect.getPrefixRewrite());
            default -> {
            }
        }
        Integer code = REDIRECT_CODES.get(redirect.getResponseCode());
        if (code == null) {
            throw new XdsRejection(at + ".response_code: " + redirect.getResponseCode() + " not supported");
        }
        tree.put("response_code", code);
        if (redirect.getStripQuery()) {
            tree.put("strip_query", true);
        }
        return tree;
    }

    /** The clusters of {@code weighted} and their weights, as the file's {@code weighted_clusters}. */
    static ArrayNode weightedClusters(WeightedCluster weighted, String at) {
        Fields.allowOnly(weighted, at + ".weighted_clusters", Set.of("clusters"));
        ArrayNode list = NODES.arrayNode();
        for (int i = 0; i < weighted.getClustersCount(); i++) {
            WeightedCluster.ClusterWeight c = weighted.getClusters(i);
            Fields.allowOnly(c, at + ".weighted_clusters.clusters[" + i + "]", Set.of("name", "weight"));
            list.addObject().put("name", c.getName()).put("weight", c.getWeight().getValue());
        }
        return list;
    }

    private static ObjectNode retryPolicy(RetryPolicy policy, String at) {
        Fields.allowOnly(policy, at, Set.of("retry_on", "num_retries", "per_try_timeout", "retry_back_off",
                "retriable_status_codes", "retry_host_predicate", "host_selection_retry_max_attempts"));
        RetryOptions.checkHosts(policy, at);
        ObjectNode tree = NODES.objectNode();
        RetryOptions.conditions(policy.getRetryOn(), policy.getRetriableStatusCodesCount() > 0).forEach(tree.putArray("retry_on")::add);
        if (policy.hasNumRetries()) {
            tree.put("num_retries", policy.getNumRetries().getValue());
        }
        if (policy.hasPerTryTimeout()) {
            tree.put("per_try_timeout", Fields.duration(policy.getPerTryTimeout()));
        }
        if (policy.hasRetryBackOff()) {
            RetryPolicy.RetryBackOff backOff = policy.getRetryBackOff();
            Fields.allowOnly(backOff, at + ".retry_back_off", Set.of("base_interval", "max_interval"));
            ObjectNode b = tree.putObject("retry_back_off").put("base_interval", Fields.duration(backOff.getBaseInterval()));
            if (backOff.hasMaxInterval()) {
                b.put("max_interval", Fields.duration(backOff.getMaxInterval()));
            }
        }
        if (policy.getRetriableStatusCodesCount() > 0) {
            policy.getRetriableStatusCodesList().forEach(tree.putArray("retriable_status_codes")::add);
        }
        return tree;
    }
}
