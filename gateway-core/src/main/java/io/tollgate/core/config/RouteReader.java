package io.tollgate.core.config;

import static io.tollgate.core.config.ConfigChecks.absolutePath;
import static io.tollgate.core.config.ConfigChecks.headerName;
import static io.tollgate.core.config.ConfigChecks.priority;
import static io.tollgate.core.config.ConfigChecks.regex;
import static io.tollgate.core.config.ConfigChecks.unique;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a {@code route_config}: virtual hosts, their routes, each route's match and action
 * (forward with its retry policy, direct response, redirect, an RPC call made from the HTTP request)
 * and header mutations. A listener's
 * own routes may override its stream filters ({@link RouteFilterOverrides}); a route configuration
 * from xDS is read by the same rules.
 */
final class RouteReader {

    private RouteReader() {
    }

    static RouteConfig routeConfig(ConfigNode n, RouteFilterOverrides overrides) {
        n.allowOnly(Set.of("virtual_hosts"));
        List<VirtualHostConfig> hosts = n.list("virtual_hosts", h -> virtualHost(h, overrides));
        unique(n.child("virtual_hosts"), hosts.stream().map(VirtualHostConfig::name).toList());
        return n.build(() -> new RouteConfig(hosts));
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
        n.allowOnly(Set.of("name", "match", "route", "direct_response", "redirect", "rpc_call",
                "request_headers", "response_headers", "filters"));
        Optional<ForwardActionConfig> forward = n.optional("route").map(r -> forward(r, FORWARD_KEYS));
        Optional<ConfigNode> rpcCallNode = n.optional("rpc_call");
        Optional<DirectResponseConfig> direct = n.optional("direct_response").map(d -> {
            d.allowOnly(Set.of("status", "body"));
            return new DirectResponseConfig(d.integer("status", 200, 200, 599), d.string("body", ""));
        });
        Optional<RedirectConfig> redirect = n.optional("redirect").map(RouteReader::redirect);
        int actions = (forward.isPresent() ? 1 : 0) + (direct.isPresent() ? 1 : 0) + (redirect.isPresent() ? 1 : 0)
                + (rpcCallNode.isPresent() ? 1 : 0);
        if (actions != 1) {
            throw n.error("needs exactly one of route, direct_response, redirect, rpc_call (found " + actions + ")");
        }
        RouteMatchConfig match = match(n.required("match"));
        Optional<RpcCallConfig> rpcCall = rpcCallNode.map(c -> RpcCallReader.rpcCall(c, match));
        if (rpcCallNode.isPresent()) {
            forward = Optional.of(forward(rpcCallNode.get(), RpcCallReader.KEYS));
        }
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
                n.optional("request_headers").map(RouteReader::headerMutation).orElse(HeaderMutationConfig.NONE),
                n.optional("response_headers").map(RouteReader::headerMutation).orElse(HeaderMutationConfig.NONE),
                n.optional("filters").map(f -> FilterReader.overrides(f, overrides)).orElse(Map.of()),
                rpcCall);
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
        regex.ifPresent(r -> regex(n.child("regex"), r));
        return new RouteMatchConfig(path, prefix, regex,
                n.list("headers", h -> valueMatcher(h, headerName(h.child("name"), h.string("name")))),
                n.list("query_parameters", q -> valueMatcher(q, q.string("name"))));
    }

    private static ValueMatcherConfig valueMatcher(ConfigNode n, String name) {
        n.allowOnly(Set.of("name", "exact", "regex", "present", "invert"));
        Optional<String> exact = n.optionalString("exact");
        Optional<String> regex = n.optionalString("regex");
        boolean present = n.bool("present", false);
        return n.build(() -> new ValueMatcherConfig(name, exact, regex, present, n.bool("invert", false)));
    }

    private static final Set<String> FORWARD_KEYS = Set.of("cluster", "weighted_clusters", "prefix_rewrite",
            "host_rewrite", "timeout", "metadata_match", "retry_policy", "per_request_buffer_limit_bytes", "hash_policy",
            "priority", "max_grpc_timeout");

    /** Reads where a request is forwarded, from a node whose keys are {@code allowed}. */
    static ForwardActionConfig forward(ConfigNode n, Set<String> allowed) {
        n.allowOnly(allowed);
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
        Duration timeout = n.positiveDuration("timeout", ForwardActionConfig.DEFAULT_TIMEOUT);
        return new ForwardActionConfig(cluster, weighted, n.optionalString("prefix_rewrite"),
                n.optionalString("host_rewrite"), timeout,
                n.stringMap("metadata_match"), n.optional("retry_policy").map(RouteReader::retryPolicy),
                n.integer("per_request_buffer_limit_bytes", ForwardActionConfig.DEFAULT_PER_REQUEST_BUFFER_LIMIT_BYTES,
                        0, Integer.MAX_VALUE),
                n.list("hash_policy", HashPolicyConfig::parse), priority(n, "priority"),
                n.positiveDuration("max_grpc_timeout", timeout));
    }

    private static RetryPolicyConfig retryPolicy(ConfigNode n) {
        n.allowOnly(Set.of("retry_on", "retriable_status_codes", "num_retries", "per_try_timeout", "retry_back_off",
                "retry_non_idempotent"));
        List<RetryPolicyConfig.Condition> retryOn = n.list("retry_on", c -> RetryPolicyConfig.Condition.named(c.asString())
                .orElseThrow(() -> c.error("unknown condition '" + c.asString() + "' (expected one of "
                        + Arrays.stream(RetryPolicyConfig.Condition.values()).map(RetryPolicyConfig.Condition::configName)
                                .toList() + ")")));
        List<Integer> codes = n.list("retriable_status_codes", c -> (int) c.asLong(100, 599));
        Optional<ConfigNode> backOff = n.optional("retry_back_off")
                .map(b -> b.allowOnly(Set.of("base_interval", "max_interval")));
        Duration base = backOff.map(b -> b.positiveDuration("base_interval", RetryPolicyConfig.DEFAULT_BASE_INTERVAL))
                .orElse(RetryPolicyConfig.DEFAULT_BASE_INTERVAL);
        Duration max = backOff.map(b -> b.positiveDuration("max_interval", base.multipliedBy(10)))
                .orElse(base.multipliedBy(10));
        return n.build(() -> new RetryPolicyConfig(Set.copyOf(retryOn), Set.copyOf(codes),
                n.integer("num_retries", RetryPolicyConfig.DEFAULT_NUM_RETRIES, 0, 100),
                n.has("per_try_timeout") ? Optional.of(n.positiveDuration("per_try_timeout", null)) : Optional.empty(),
                base, max, n.bool("retry_non_idempotent", false)));
    }

    private static RedirectConfig redirect(ConfigNode n) {
        n.allowOnly(Set.of("scheme", "host", "port", "path", "prefix_rewrite", "response_code", "strip_query"));
        int code = n.integer("response_code", 301, 0, 999);
        return n.build(() -> new RedirectConfig(n.optionalString("scheme"), n.optionalString("host"),
                n.optional("port").map(p -> (int) p.asLong(1, 65535)), n.optionalString("path"),
                n.optionalString("prefix_rewrite"), code, n.bool("strip_query", false)));
    }

    /**
     * Reads a header mutation ({@code add}: name, value, append; {@code remove}: names), as a
     * route's {@code request_headers} and the {@code headers} filter write it.
     */
    static HeaderMutationConfig headerMutation(ConfigNode n) {
        n.allowOnly(Set.of("add", "remove"));
        List<HeaderValueConfig> add = n.list("add", h -> {
            h.allowOnly(Set.of("name", "value", "append"));
            return new HeaderValueConfig(headerName(h.child("name"), h.string("name")),
                    h.string("value", ""), h.bool("append", false));
        });
        List<String> remove = n.list("remove", h -> headerName(h, h.asString()));
        return new HeaderMutationConfig(add, remove);
    }
}
