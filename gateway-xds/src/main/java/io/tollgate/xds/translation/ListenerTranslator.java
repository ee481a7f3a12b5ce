package io.tollgate.xds.translation;

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
import io.envoyproxy.envoy.config.listener.v3.FilterChainMatch;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.DubboProxy;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.extension.ExtensionRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Turns an Envoy {@code Listener} whose filter chain is an HTTP connection manager (or a
 * {@code dubbo_proxy}, or the gateway's own Bolt proxy in a {@code TypedStruct}) into the gateway's
 * HTTP (or Dubbo, or Bolt) listener, through the same checks as a listener of the configuration
 * file. HTTP routes are inline or named for RDS; Dubbo and Bolt routes are inline. Its TLS
 * certificates come from SDS; several filter chains chosen by SNI become SNI certificates.
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
     * name of the {@code RouteConfiguration} that brings them; {@code httpFilters} tells which of
     * its stream filters each of Envoy's HTTP filters became, for the settings routes from RDS give them.
     */
    record Translated(ListenerConfig config, Optional<String> rdsName,
            Optional<TransportSocketTranslator.ListenerSecrets> tls, Duration rdsFetchTimeout,
            HttpFilterTranslator.Chain httpFilters) {

        /** A plaintext listener without HTTP filters, its routes waited for as long as Envoy waits by default. */
        Translated(ListenerConfig config, Optional<String> rdsName) {
            this(config, rdsName, Optional.empty(), ClusterTranslator.DEFAULT_INITIAL_FETCH_TIMEOUT,
                    HttpFilterTranslator.Chain.NONE);
        }

        /** What this listener serves with {@code routes} from RDS. */
        RouteTranslator.Served serve(RouteTranslator.Translated routes, ExtensionRegistry extensions) {
            return routes.forListener(httpFilters, config.filters(), extensions, "Listener '" + config.name() + "'");
        }

        /** What this listener serves with its inline routes. */
        RouteTranslator.Served inline() {
            return new RouteTranslator.Served(config.routeConfig(), config.filters());
        }

        /** The listener serving {@code served}, with {@code settings} for its TLS (the secrets it needs, arrived). */
        ListenerConfig ready(RouteTranslator.Served served, Optional<TlsConfig> settings) {
            ListenerConfig c = config;
            return new ListenerConfig(c.name(), c.address(), c.port(), c.protocols(), served.routes(), c.http(),
                    c.accessLog(), c.protocolOptions(), c.http2(), settings, c.limits(), served.filters(),
                    c.networkFilters(), c.proxyProtocol());
        }

        private Translated withRdsFetchTimeout(Duration timeout) {
            return new Translated(config, rdsName, tls, timeout, httpFilters);
        }

        private Translated withTls(Optional<TransportSocketTranslator.ListenerSecrets> secrets) {
            return new Translated(config, rdsName, secrets, rdsFetchTimeout, httpFilters);
        }

        private Translated withHttpFilters(HttpFilterTranslator.Chain chain) {
            return new Translated(config, rdsName, tls, rdsFetchTimeout, chain);
        }
    }

    Translated translate(Listener listener) {
        String at = "Listener '" + listener.getName() + "'";
        // traffic_direction only labels Envoy's stats; max_connections_to_accept_per_socket_event tunes
        // Envoy's accept loop, where the gateway's event loops take what one wake-up finds.
        Fields.allowOnly(listener, at, Set.of("name", "address", "filter_chains", "listener_filters",
                "traffic_direction", "max_connections_to_accept_per_socket_event"));
        SocketAddress socket = socketAddress(listener.getAddress(), at + ".address");
        int main = defaultChain(listener, at);
        String chainAt = at + ".filter_chains[" + main + "]";
        FilterChain chain = listener.getFilterChains(main);
        // transport_socket_connect_timeout bounds a TLS handshake; a plaintext chain has none to bound (Envoy)
        Fields.allowOnly(chain, chainAt, Set.of("filters", "name", "transport_socket", "transport_socket_connect_timeout"));
        Translated translated = filters(listener, chain, chainAt, socket);
        if (!chain.hasTransportSocket()) {
            if (listener.getFilterChainsCount() > 1) {
                throw new XdsRejection(chainAt + ".transport_socket: needed when filter chains are chosen by SNI"
                        + " (server_names)");
            }
            return translated;
        }
        TransportSocketTranslator.ListenerSecrets secrets = TransportSocketTranslator.downstream(
                chain.getTransportSocket(), chainAt + ".transport_socket", translated.config().protocols());
        if (secrets.requireClientCertificate() && chain.getFilters(0).getTypedConfig().is(HttpConnectionManager.class)) {
            ConnectionManagerOptions.verifiesClientCertificates(typedConfig(chain.getFilters(0), chainAt + ".filters[0]",
                    HCM, HttpConnectionManager.class), chainAt + ".filters[0].typed_config");
        }
        com.google.protobuf.Duration connect = chain.getTransportSocketConnectTimeout();
        if (connect.getSeconds() != 0 || connect.getNanos() != 0) {
            secrets = secrets.withHandshakeTimeout(Duration.ofSeconds(connect.getSeconds(), connect.getNanos()));
        }
        return translated.withTls(Optional.of(secrets.withSni(sniChains(listener, main, secrets,
                translated.config().protocols()))));
    }

    /**
     * The index of the chain that serves every connection no other chain's {@code server_names}
     * claims: the only one, or the one of several without a {@code filter_chain_match}.
     */
    private static int defaultChain(Listener listener, String at) {
        if (listener.getFilterChainsCount() == 0) {
            throw new XdsRejection(at + ".filter_chains: none (supported: one, or several chosen by SNI)");
        }
        int main = -1;
        for (int i = 0; i < listener.getFilterChainsCount(); i++) {
            if (!listener.getFilterChains(i).hasFilterChainMatch()) {
                if (main >= 0) {
                    throw new XdsRejection(at + ".filter_chains[" + i + "].filter_chain_match: needed (filter_chains["
                            + main + "] has none already; chains are chosen by server_names)");
                }
                main = i;
            }
        }
        if (main < 0) {
            throw new XdsRejection(at + ".filter_chains: every chain has a filter_chain_match (supported: one chain"
                    + " without, the default, and others matching server_names)");
        }
        return main;
    }

    /**
     * The certificates of the chains other than the default one, each chosen by its
     * {@code server_names}; they must serve what the default chain serves, with the same TLS
     * settings but the certificate, as the listener has one route configuration.
     */
    private static List<TransportSocketTranslator.SniSecret> sniChains(Listener listener, int main,
            TransportSocketTranslator.ListenerSecrets defaults, List<String> protocols) {
        String at = "Listener '" + listener.getName() + "'.filter_chains";
        FilterChain first = listener.getFilterChains(main);
        List<TransportSocketTranslator.SniSecret> sni = new ArrayList<>();
        for (int i = 0; i < listener.getFilterChainsCount(); i++) {
            if (i == main) {
                continue;
            }
            FilterChain chain = listener.getFilterChains(i);
            String where = at + "[" + i + "]";
            Fields.allowOnly(chain, where, Set.of("filters", "name", "transport_socket", "filter_chain_match",
                    "transport_socket_connect_timeout"));
            FilterChainMatch match = chain.getFilterChainMatch();
            Fields.allowOnly(match, where + ".filter_chain_match", Set.of("server_names"));
            if (match.getServerNamesCount() == 0) {
                throw new XdsRejection(where + ".filter_chain_match.server_names: must not be empty");
            }
            if (!chain.getFiltersList().equals(first.getFiltersList())) {
                throw new XdsRejection(where + ".filters: differ from those of filter_chains[" + main
                        + "] (supported: chains chosen by SNI share their network filters)");
            }
            if (!chain.hasTransportSocket()) {
                throw new XdsRejection(where + ".transport_socket: needed when filter chains are chosen by SNI");
            }
            TransportSocketTranslator.ListenerSecrets tls = TransportSocketTranslator.downstream(
                    chain.getTransportSocket(), where + ".transport_socket", protocols);
            if (!tls.validation().equals(defaults.validation())
                    || tls.requireClientCertificate() != defaults.requireClientCertificate()
                    || !tls.alpn().equals(defaults.alpn())) {
                throw new XdsRejection(where + ".transport_socket: differs from that of filter_chains[" + main
                        + "] in more than its certificate (supported: chains chosen by SNI differ only in it)");
            }
            sni.add(new TransportSocketTranslator.SniSecret(match.getServerNamesList().stream()
                    .map(n -> n.toLowerCase(Locale.ROOT)).toList(), tls.certificate()));
        }
        return sni;
    }

    /** The listener the one network filter of {@code chain} makes. */
    private Translated filters(Listener listener, FilterChain chain, String chainAt, SocketAddress socket) {
        String at = "Listener '" + listener.getName() + "'";
        if (chain.getFiltersCount() != 1) {
            throw new XdsRejection(chainAt + ".filters: " + chain.getFiltersCount()
                    + " network filters (supported: exactly one, " + HCM + ", " + DubboProxyTranslator.NAME
                    + " or a TypedStruct of " + BoltProxyTranslator.TYPE_URL + ")");
        }
        String where = chainAt + ".filters[0]";
        ObjectNode tree = NODES.objectNode().put("name", listener.getName()).put("address", socket.getAddress())
                .put("port", socket.getPortValue());
        ListenerFilterTranslator.translate(listener.getListenerFiltersList(), at + ".listener_filters", tree);
        Filter filter = chain.getFilters(0);
        if (BoltProxyTranslator.isTypedStruct(filter.getTypedConfig())) {
            Fields.allowOnly(filter, where, Set.of("name", "typed_config"));
            BoltProxyTranslator.listener(filter.getTypedConfig(), where + ".typed_config", tree);
            return validated(at, tree, Optional.empty());
        }
        if (filter.getTypedConfig().is(DubboProxy.class)) {
            DubboProxy dubbo = typedConfig(filter, where, DubboProxyTranslator.NAME, DubboProxy.class);
            tree.putArray("protocols").add("dubbo");
            tree.set("route_config", DubboProxyTranslator.routeConfig(dubbo, where + ".typed_config"));
            return validated(at, tree, Optional.empty());
        }
        HttpConnectionManager hcm = typedConfig(filter, where, HCM, HttpConnectionManager.class);
        where += ".typed_config";
        Set<String> fields = new HashSet<>(ConnectionManagerOptions.FIELDS);
        fields.addAll(Set.of("stat_prefix", "codec_type", "route_config", "rds", "http_filters"));
        Fields.allowOnly(hcm, where, fields);
        ObjectNode settings = ConnectionManagerOptions.apply(hcm, where);
        ConnectionManagerOptions.paths(hcm, tree);
        HttpFilterTranslator.Chain httpFilters = HttpFilterTranslator.translate(hcm.getHttpFiltersList(),
                where + ".http_filters");
        ArrayNode filters = httpFilters.filters().deepCopy();
        if (settings != null) {
            filters.insert(0, settings);
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
            FilterOverrides.Resolved routes = FilterOverrides.resolve(
                    RouteTranslator.routeConfig(hcm.getRouteConfig(), where + ".route_config"), httpFilters, at);
            tree.set("route_config", routes.routeConfig());
            filters = routes.filters(filters);
        } else {
            throw new XdsRejection(where + ": needs route_config or rds");
        }
        if (!filters.isEmpty()) {
            tree.set("filters", filters);
        }
        return validated(at, tree, rds).withRdsFetchTimeout(
                hcm.hasRds() ? ClusterTranslator.initialFetchTimeout(hcm.getRds().getConfigSource()) : Duration.ZERO)
                .withHttpFilters(httpFilters);
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
