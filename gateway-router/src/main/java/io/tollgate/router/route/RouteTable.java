package io.tollgate.router.route;

import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.config.VirtualHostConfig;
import io.tollgate.core.route.RouteRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A listener's compiled routes. Virtual hosts are found as Envoy finds them: an exact domain
 * first, then the longest {@code *.suffix}, then the longest {@code prefix.*}, then {@code *}.
 * Immutable; safe to share between event loops.
 */
public final class RouteTable {

    private final Map<String, VirtualHost> exact = new HashMap<>();
    private final List<Map.Entry<String, VirtualHost>> suffixes = new ArrayList<>();
    private final List<Map.Entry<String, VirtualHost>> prefixes = new ArrayList<>();
    private final List<Route> allRoutes = new ArrayList<>();
    private VirtualHost fallback;

    private RouteTable(RouteConfig config) {
        for (VirtualHostConfig hostConfig : config.virtualHosts()) {
            VirtualHost host = new VirtualHost(hostConfig);
            allRoutes.addAll(host.routes());
            for (String domain : hostConfig.domains()) {
                if (domain.equals("*")) {
                    fallback = host;
                } else if (domain.startsWith("*")) {
                    suffixes.add(Map.entry(domain.substring(1), host));
                } else if (domain.endsWith("*")) {
                    prefixes.add(Map.entry(domain.substring(0, domain.length() - 1), host));
                } else {
                    exact.put(domain, host);
                }
            }
        }
        Comparator<Map.Entry<String, VirtualHost>> longestFirst =
                Comparator.comparingInt((Map.Entry<String, VirtualHost> e) -> e.getKey().length()).reversed();
        suffixes.sort(longestFirst);
        prefixes.sort(longestFirst);
    }

    /** Compiles a route configuration; it was validated when it was loaded. */
    public static RouteTable compile(RouteConfig config) {
        return new RouteTable(config);
    }

    /** Every route of every virtual host, in configuration order. */
    public List<Route> routes() {
        return List.copyOf(allRoutes);
    }

    /** Returns the route for a request, or null when no virtual host or route matches. */
    public Route route(RouteRequest request) {
        VirtualHost host = virtualHost(request.authority());
        return host == null ? null : host.route(request);
    }

    private VirtualHost virtualHost(String authority) {
        if (authority != null) {
            VirtualHost host = exact.get(authority);
            if (host != null) {
                return host;
            }
            for (Map.Entry<String, VirtualHost> suffix : suffixes) {
                if (authority.length() > suffix.getKey().length() && authority.endsWith(suffix.getKey())) {
                    return suffix.getValue();
                }
            }
            for (Map.Entry<String, VirtualHost> prefix : prefixes) {
                if (authority.length() > prefix.getKey().length() && authority.startsWith(prefix.getKey())) {
                    return prefix.getValue();
                }
            }
        }
        return fallback;
    }
}
