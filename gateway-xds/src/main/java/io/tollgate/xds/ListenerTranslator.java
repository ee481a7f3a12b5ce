package io.tollgate.xds;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.DubboProxy;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ConfigLoader;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns an Envoy {@code Listener} whose one filter chain is an HTTP connection manager (or a
 * {@code dubbo_proxy}) into the gateway's HTTP (or Dubbo) listener, through the same checks as a
 * listener of the configuration file. HTTP routes are inline or named for RDS; Dubbo routes are
 * inline.
 */
final class ListenerTranslator {

    static final String HCM = "envoy.filters.network.http_connection_manager";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ExtensionRegistry extensions;

    ListenerTranslator(ExtensionRegistry extensions) {
        this.extensions = extensions;
    }

    /**
     * A listener as received: validated, with the routes it was given inline, or with none and the
     * name of the {@code RouteConfiguration} that brings them.
     */
    record Translated(ListenerConfig config, Optional<String> rdsName) {

        /** The listener serving {@code routes}. */
        ListenerConfig withRoutes(RouteConfig routes) {
            return config.withRoutes(routes);
        }
    }

    Translated translate(Listener listener) {
        String at = "Listener '" + listener.getName() + "'";
        Fields.allowOnly(listener, at, Set.of("name", "address", "filter_chains"));
        SocketAddress socket = socketAddress(listener.getAddress(), at + ".address");
        if (listener.getFilterChainsCount() != 1) {
            throw new XdsRejection(at + ".filter_chains: " + listener.getFilterChainsCount()
                    + " filter chains (supported: exactly one)");
        }
        FilterChain chain = listener.getFilterChains(0);
        Fields.allowOnly(chain, at + ".filter_chains[0]", Set.of("filters", "name"));
        if (chain.getFiltersCount() != 1) {
            throw new XdsRejection(at + ".filter_chains[0].filters: " + chain.getFiltersCount()
                    + " network filters (supported: exactly one, " + HCM + " or " + DubboProxyTranslator.NAME + ")");
        }
        String where = at + ".filter_chains[0].filters[0]";
        ObjectNode tree = NODES.objectNode().put("name", listener.getName()).put("address", socket.getAddress())
                .put("port", socket.getPortValue());
        Filter filter = chain.getFilters(0);
        if (filter.getTypedConfig().is(DubboProxy.class)) {
            DubboProxy dubbo = typedConfig(filter, where, DubboProxyTranslator.NAME, DubboProxy.class);
            tree.putArray("protocols").add("dubbo");
            tree.set("route_config", DubboProxyTranslator.routeConfig(dubbo, where + ".typed_config"));
            return validated(at, tree, Optional.empty());
        }
        HttpConnectionManager hcm = typedConfig(filter, where, HCM, HttpConnectionManager.class);
        where += ".typed_config";
        Fields.allowOnly(hcm, where, Set.of("stat_prefix", "codec_type", "route_config", "rds", "http_filters"));
        ArrayNode filters = HttpFilterTranslator.translate(hcm.getHttpFiltersList(), where + ".http_filters");
        if (!filters.isEmpty()) {
            tree.set("filters", filters);
        }
        List<String> protocols = switch (hcm.getCodecType()) {
            case AUTO -> List.of("http1", "h2c");
            case HTTP1 -> List.of("http1");
            case HTTP2 -> List.of("h2c");
            default -> throw new XdsRejection(where + ".codec_type: " + hcm.getCodecType()
                    + " not supported (supported: AUTO, HTTP1, HTTP2)");
        };
        protocols.forEach(tree.putArray("protocols")::add);
        Optional<String> rds;
        if (hcm.hasRds()) {
            Rds source = hcm.getRds();
            Fields.allowOnly(source, where + ".rds", Set.of("route_config_name", "config_source"));
            ClusterTranslator.requireAds(source.getConfigSource(), where + ".rds.config_source");
            if (source.getRouteConfigName().isEmpty()) {
                throw new XdsRejection(where + ".rds.route_config_name: must not be empty");
            }
            rds = Optional.of(source.getRouteConfigName());
            tree.putObject("route_config").putArray("virtual_hosts");
        } else if (hcm.hasRouteConfig()) {
            rds = Optional.empty();
            tree.set("route_config", RouteTranslator.routeConfig(hcm.getRouteConfig(), where + ".route_config"));
        } else {
            throw new XdsRejection(where + ": needs route_config or rds");
        }
        return validated(at, tree, rds);
    }

    private Translated validated(String at, ObjectNode tree, Optional<String> rds) {
        try {
            return new Translated(ConfigLoader.listener(tree, "", extensions), rds);
        } catch (ConfigException | IllegalArgumentException e) {
            throw new XdsRejection(at + ": " + e.getMessage());
        }
    }

    private static <T extends Message> T typedConfig(Filter filter, String at, String name, Class<T> type) {
        Fields.allowOnly(filter, at, Set.of("name", "typed_config"));
        return typedConfig(filter.getName(), filter.getTypedConfig(), at, name, type);
    }

    private static <T extends Message> T typedConfig(String filterName, Any config, String at, String name,
            Class<T> type) {
        if (!config.is(type)) {
            throw new XdsRejection(at + ": '" + filterName + "' with typed_config " + config.getTypeUrl()
                    + " not supported (supported: " + name + ")");
        }
        try {
            return config.unpack(type);
        } catch (InvalidProtocolBufferException e) {
            throw new XdsRejection(at + ".typed_config: cannot be decoded: " + e.getMessage());
        }
    }

    /** The TCP socket address of {@code address}; pipes, internal addresses and UDP are refused. */
    static SocketAddress socketAddress(Address address, String at) {
        Fields.allowOnly(address, at, Set.of("socket_address"));
        SocketAddress socket = address.getSocketAddress();
        Fields.allowOnly(socket, at + ".socket_address", Set.of("address", "port_value", "protocol"));
        if (socket.getProtocol() != SocketAddress.Protocol.TCP) {
            throw new XdsRejection(at + ".socket_address.protocol: " + socket.getProtocol() + " not supported (supported: TCP)");
        }
        if (socket.getAddress().isEmpty()) {
            throw new XdsRejection(at + ".socket_address.address: must not be empty");
        }
        return socket;
    }
}
