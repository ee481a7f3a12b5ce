package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.DubboFilter;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.DubboProxy;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.MethodMatch;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.Route;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.RouteAction;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.RouteMatch;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns Envoy's {@code dubbo_proxy} network filter into the routes of a Dubbo listener. The
 * gateway routes a Dubbo request by its interface (the virtual host's domain), a path
 * {@code /interface/method}, and its attachments as headers ({@code group}, {@code version} and
 * the rest), so the Envoy route configurations of one interface (each optionally for a group and
 * a version, added to its routes as header matches) become one virtual host, and a method match
 * becomes a match on the path.
 */
final class DubboProxyTranslator {

    static final String NAME = "envoy.filters.network.dubbo_proxy";
    private static final String ROUTER = "envoy.filters.dubbo.router";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private DubboProxyTranslator() {
    }

    /** The {@code route_config} of a listener serving {@code proxy}. */
    static ObjectNode routeConfig(DubboProxy proxy, String at) {
        // protocol_type Dubbo and serialization_type Hessian2 are the defaults: any other is set, and refused.
        Fields.allowOnly(proxy, at, Set.of("stat_prefix", "route_config", "dubbo_filters"));
        for (int i = 0; i < proxy.getDubboFiltersCount(); i++) {
            DubboFilter filter = proxy.getDubboFilters(i);
            Fields.allowOnly(filter, at + ".dubbo_filters[" + i + "]", Set.of("name"));
            if (!filter.getName().equals(ROUTER)) {
                throw new XdsRejection(at + ".dubbo_filters[" + i + "].name: '" + filter.getName()
                        + "' not supported (supported: " + ROUTER + ")");
            }
        }
        // Route configurations of one interface (for several groups or versions) share its virtual host, in order.
        Map<String, ArrayNode> routesByInterface = new LinkedHashMap<>();
        for (int i = 0; i < proxy.getRouteConfigCount(); i++) {
            RouteConfiguration config = proxy.getRouteConfig(i);
            String where = at + ".route_config[" + i + "]";
            Fields.allowOnly(config, where, Set.of("name", "interface", "group", "version", "routes"));
            String service = config.getInterface();
            if (service.isEmpty() || (service.contains("*") && !service.equals("*"))) {
                throw new XdsRejection(where + ".interface: '" + service
                        + "' not supported (supported: an interface name or *)");
            }
            ArrayNode routes = routesByInterface.computeIfAbsent(service, s -> NODES.arrayNode());
            for (int r = 0; r < config.getRoutesCount(); r++) {
                routes.add(route(config, config.getRoutes(r), where + ".routes[" + r + "]"));
            }
        }
        return byService(routesByInterface);
    }

    /**
     * A {@code route_config} of one virtual host per RPC service, named after it and serving it
     * as its domain, with its routes (Dubbo interfaces, Bolt services).
     */
    static ObjectNode byService(Map<String, ArrayNode> routesByService) {
        ObjectNode tree = NODES.objectNode();
        ArrayNode hosts = tree.putArray("virtual_hosts");
        routesByService.forEach((service, routes) -> {
            ObjectNode host = hosts.addObject().put("name", service);
            host.putArray("domains").add(service);
            host.set("routes", routes);
        });
        return tree;
    }

    private static ObjectNode route(RouteConfiguration config, Route route, String at) {
        Fields.allowOnly(route, at, Set.of("match", "route"));
        ObjectNode tree = NODES.objectNode();
        ObjectNode match = tree.putObject("match");
        RouteMatch routeMatch = route.getMatch();
        Fields.allowOnly(routeMatch, at + ".match", Set.of("method", "headers"));
        String service = config.getInterface().equals("*") ? "[^/]+" : Pattern.quote(config.getInterface());
        if (routeMatch.hasMethod()) {
            MethodMatch method = routeMatch.getMethod();
            Fields.allowOnly(method, at + ".match.method", Set.of("name"));
            match.put("regex", "/" + service + "/" + methodPattern(method.getName(), at + ".match.method.name"));
        } else {
            match.put("prefix", "/");
        }
        ArrayNode headers = match.putArray("headers");
        if (!config.getGroup().isEmpty()) {
            headers.addObject().put("name", "group").put("exact", config.getGroup());
        }
        if (!config.getVersion().isEmpty()) {
            headers.addObject().put("name", "version").put("exact", config.getVersion());
        }
        for (int i = 0; i < routeMatch.getHeadersCount(); i++) {
            headers.add(RouteTranslator.header(routeMatch.getHeaders(i), at + ".match.headers[" + i + "]"));
        }
        RouteAction action = route.getRoute();
        Fields.allowOnly(action, at + ".route", Set.of("cluster", "weighted_clusters", "metadata_match"));
        ObjectNode forward = tree.putObject("route");
        switch (action.getClusterSpecifierCase()) {
            case CLUSTER -> forward.put("cluster", action.getCluster());
            case WEIGHTED_CLUSTERS -> forward.set("weighted_clusters",
                    RouteTranslator.weightedClusters(action.getWeightedClusters(), at + ".route"));
            default -> throw new XdsRejection(at + ".route: needs cluster or weighted_clusters");
        }
        if (action.hasMetadataMatch()) {
            forward.set("metadata_match", SubsetTranslator.lbMetadata(action.getMetadataMatch(), at + ".route.metadata_match"));
        }
        return tree;
    }

    /** A method name matcher as a regex over the method part of the path. */
    private static String methodPattern(StringMatcher name, String at) {
        Fields.allowOnly(name, at, Set.of("exact", "prefix", "safe_regex"));
        return switch (name.getMatchPatternCase()) {
            case EXACT -> Pattern.quote(name.getExact());
            case PREFIX -> Pattern.quote(name.getPrefix()) + "[^/]*";
            case SAFE_REGEX -> RouteTranslator.regex(name.getSafeRegex(), at + ".safe_regex");
            default -> throw new XdsRejection(at + ": needs exact, prefix or safe_regex");
        };
    }
}
