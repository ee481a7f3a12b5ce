package io.tollgate.router.route;

import com.google.re2j.Pattern;
import io.tollgate.core.config.DirectResponseConfig;
import io.tollgate.core.config.ForwardActionConfig;
import io.tollgate.core.config.HeaderMutationConfig;
import io.tollgate.core.config.RedirectConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.RouteMatchConfig;
import io.tollgate.core.config.RoutingPriority;
import io.tollgate.core.config.RpcCallConfig;
import io.tollgate.core.config.WeightedClusterConfig;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.core.metrics.RouteMetrics;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.retry.RetryPolicy;
import io.tollgate.router.lb.HashPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A compiled route: its matcher and its action, ready to be used on the hot path without parsing
 * anything. Shared by every event loop and immutable, but for the handle of its meters, kept once
 * resolved (see {@link #meters}).
 */
public final class Route {

    /** What a route does with a request it matched. */
    public enum Kind { FORWARD, DIRECT_RESPONSE, REDIRECT }

    private final String name;
    private final String virtualHost;
    private final RouteEntryConfig config;
    private final String path;
    private final String prefix;
    private final Pattern regex;
    private final ValueMatcher[] headers;
    private final ValueMatcher[] queryParameters;
    private final String[] clusters;
    private final int[] cumulativeWeights;
    private final Map<String, String> metadataMatch;
    private final RetryPolicy retryPolicy;
    private final HashPolicy hashPolicy;
    private final RpcCallConfig rpcCall;
    /** The route's meters, resolved by its first request and kept; null until then. */
    private RouteMetrics meters;

    Route(String virtualHost, int index, RouteEntryConfig config) {
        this.name = config.name().isEmpty() ? virtualHost + "/" + index : config.name();
        this.virtualHost = virtualHost;
        this.config = config;
        RouteMatchConfig match = config.match();
        this.path = match.path().orElse(null);
        this.prefix = match.prefix().orElse(null);
        this.regex = match.regex().map(Pattern::compile).orElse(null);
        this.headers = match.headers().stream().map(ValueMatcher::new).toArray(ValueMatcher[]::new);
        this.queryParameters = match.queryParameters().stream().map(ValueMatcher::new).toArray(ValueMatcher[]::new);
        ForwardActionConfig forward = config.forward().orElse(null);
        this.metadataMatch = forward == null ? Map.of() : forward.metadataMatch();
        this.retryPolicy = forward == null ? null : forward.retryPolicy().map(RetryPolicy::new).orElse(null);
        this.hashPolicy = forward == null || forward.hashPolicy().isEmpty() ? null : HashPolicy.of(forward.hashPolicy());
        this.rpcCall = config.rpcCall().orElse(null);
        if (forward == null) {
            this.clusters = new String[0];
            this.cumulativeWeights = new int[0];
        } else if (forward.cluster().isPresent()) {
            this.clusters = new String[] {forward.cluster().get()};
            this.cumulativeWeights = new int[] {1};
        } else {
            List<WeightedClusterConfig> weighted = forward.weightedClusters();
            this.clusters = new String[weighted.size()];
            this.cumulativeWeights = new int[weighted.size()];
            int sum = 0;
            for (int i = 0; i < weighted.size(); i++) {
                clusters[i] = weighted.get(i).name();
                sum += weighted.get(i).weight();
                cumulativeWeights[i] = sum;
            }
        }
    }

    /** The route's name: its configured name, else {@code virtualHost/index}. Used in metrics. */
    public String name() {
        return name;
    }

    /**
     * The route's meters on {@code listener}, the listener whose table holds the route: looked up
     * by the route's first request and kept, so that every later request counts without a lookup
     * (routes no request matched make no meters). Whichever event loop resolves them first, each
     * gets the same instance, which its final fields make safe to share without a lock.
     */
    public RouteMetrics meters(ListenerMetrics listener) {
        RouteMetrics known = meters;
        if (known == null) {
            known = listener.route(name);
            meters = known;
        }
        return known;
    }

    /** The name of the virtual host this route belongs to. */
    public String virtualHost() {
        return virtualHost;
    }

    /** The configuration this route was compiled from. */
    public RouteEntryConfig config() {
        return config;
    }

    /** The exact path this route matches, or null when it matches by prefix or regex. */
    String exactPath() {
        return path;
    }

    /** The path prefix this route matches, or null when it matches by exact path or regex. */
    String prefix() {
        return prefix;
    }

    /**
     * The RPC call an HTTP request to this route becomes ({@code rpc_call}), or null when the route
     * forwards requests as they are; a route with one is a {@link Kind#FORWARD} route.
     */
    public RpcCallConfig rpcCall() {
        return rpcCall;
    }

    /** What the route does. */
    public Kind kind() {
        if (config.forward().isPresent()) {
            return Kind.FORWARD;
        }
        return config.directResponse().isPresent() ? Kind.DIRECT_RESPONSE : Kind.REDIRECT;
    }

    boolean matches(RouteRequest request) {
        String requestPath = request.path();
        if (path != null) {
            if (!path.equals(requestPath)) {
                return false;
            }
        } else if (prefix != null) {
            if (!requestPath.startsWith(prefix)) {
                return false;
            }
        } else if (!regex.matcher(requestPath).matches()) {
            return false;
        }
        for (ValueMatcher header : headers) {
            if (!header.matches(request.header(header.name()))) {
                return false;
            }
        }
        if (queryParameters.length > 0) {
            String query = request.query();
            for (ValueMatcher parameter : queryParameters) {
                if (!parameter.matches(QueryString.parameter(query, parameter.name()))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Chooses the cluster for one request; with weighted clusters, {@code random} (any int) picks
     * one in proportion to the weights. MUST only be called on a FORWARD route.
     */
    public String chooseCluster(int random) {
        if (clusters.length == 1) {
            return clusters[0];
        }
        int point = Math.floorMod(random, cumulativeWeights[cumulativeWeights.length - 1]);
        for (int i = 0; i < cumulativeWeights.length; i++) {
            if (point < cumulativeWeights[i]) {
                return clusters[i];
            }
        }
        throw new AssertionError("weights do not cover " + point);
    }

    /**
     * The labels a host must carry to serve this route, for a cluster with subset load
     * balancing: pass it to {@link io.tollgate.router.cluster.Cluster#choose(RouteRequest, Map)}.
     */
    public Map<String, String> metadataMatch() {
        return metadataMatch;
    }

    /**
     * The route's {@code hash_policy}, or null when it leaves hashing to the cluster: pass it to
     * {@link io.tollgate.router.cluster.Cluster#choose(RouteRequest, Map, HashPolicy)}.
     */
    public HashPolicy hashPolicy() {
        return hashPolicy;
    }

    /** Returns the path to send upstream: the prefix rewrite applied when configured. */
    public String rewritePath(String requestPath) {
        ForwardActionConfig forward = config.forward().orElseThrow();
        return forward.prefixRewrite().map(rewrite -> replaceMatchedPrefix(requestPath, rewrite)).orElse(requestPath);
    }

    /** Replaces the part of the path this route matched on (its prefix or exact path). */
    private String replaceMatchedPrefix(String requestPath, String replacement) {
        String matched = prefix != null ? prefix : path;
        if (matched == null || !requestPath.startsWith(matched)) {
            return requestPath;
        }
        return replacement + requestPath.substring(matched.length());
    }

    /** The upstream exchange's timeout. MUST only be called on a FORWARD route. */
    public Duration timeout() {
        return config.forward().orElseThrow().timeout();
    }

    /** The longest deadline a gRPC client may set with {@code grpc-timeout}. MUST only be called on a FORWARD route. */
    public Duration maxGrpcTimeout() {
        return config.forward().orElseThrow().maxGrpcTimeout();
    }

    /** Whose circuit breakers of the cluster the route's requests count against. MUST only be called on a FORWARD route. */
    public RoutingPriority priority() {
        return config.forward().orElseThrow().priority();
    }

    /** The route's retry policy, or null when it never retries. */
    public RetryPolicy retryPolicy() {
        return retryPolicy;
    }

    /** The most request body bytes kept for a retry. MUST only be called on a FORWARD route. */
    public int perRequestBufferLimitBytes() {
        return config.forward().orElseThrow().perRequestBufferLimitBytes();
    }

    /** The Host header to send upstream instead of the client's, or null to keep it. */
    public String hostRewrite() {
        return config.forward().orElseThrow().hostRewrite().orElse(null);
    }

    /** The fixed answer of a DIRECT_RESPONSE route. */
    public DirectResponseConfig directResponse() {
        return config.directResponse().orElseThrow();
    }

    /** The redirect's status code. */
    public int redirectCode() {
        return config.redirect().orElseThrow().responseCode();
    }

    /**
     * Builds the Location of a REDIRECT route from the request; parts not configured keep the
     * request's own, except that a request's port is dropped when the scheme changes (it was the
     * port of the old scheme).
     *
     * @param scheme the scheme the request arrived with
     * @param hostHeader the request's Host header as sent (may carry a port), or null
     */
    public String redirectLocation(RouteRequest request, String scheme, String hostHeader) {
        RedirectConfig redirect = config.redirect().orElseThrow();
        String newScheme = redirect.scheme().orElse(scheme);
        String requestHost = hostHeader == null ? request.authority() : hostHeader;
        String host = redirect.host().orElse(newScheme.equals(scheme) ? requestHost : withoutPort(requestHost));
        if (redirect.port().isPresent()) {
            host = withoutPort(host) + ":" + redirect.port().get();
        }
        String newPath = redirect.path().orElseGet(() -> redirect.prefixRewrite()
                .map(rewrite -> replaceMatchedPrefix(request.path(), rewrite))
                .orElse(request.path()));
        String query = redirect.stripQuery() || request.query() == null ? "" : "?" + request.query();
        return newScheme + "://" + host + newPath + query;
    }

    private static String withoutPort(String host) {
        int colon = host.lastIndexOf(':');
        return colon > 0 && host.indexOf(']') < colon ? host.substring(0, colon) : host;
    }

    /** Headers changed on the request before it goes upstream. */
    public HeaderMutationConfig requestHeaders() {
        return config.requestHeaders();
    }

    /** Headers changed on the response before it goes downstream. */
    public HeaderMutationConfig responseHeaders() {
        return config.responseHeaders();
    }

    @Override
    public String toString() {
        return "Route(" + name + ")";
    }
}
