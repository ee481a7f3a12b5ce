package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One downstream listening socket and what it serves.
 *
 * @param name unique listener name, used in metrics and the access log
 * @param address the local address to bind
 * @param port the local port; 0 picks a free one
 * @param protocols the protocols accepted on this socket, detected from the first bytes when
 *     there are several
 * @param routeConfig the virtual hosts and routes applied to requests from this listener
 * @param http limits and timeouts of HTTP/1.1 connections
 * @param accessLog where the access log goes
 * @param protocolOptions the settings of each protocol served, by protocol name, as its
 *     {@link io.tollgate.core.extension.ProtocolFactory} read them from the listener's block named after it
 * @param http2 settings and protections of HTTP/2 connections
 * @param tls how connections are decrypted, or empty for plaintext connections
 * @param limits the protocol detection timeout and the connection limit
 * @param filters the stream filters every request of this listener passes, in order
 * @param networkFilters the ordered network filters every connection passes before its protocol;
 *     on a {@code tcp} listener the last is the terminal one that serves it
 * @param proxyProtocol when present, the PROXY protocol header the listener reads before anything
 *     else (before TLS too), from the balancers it trusts
 * @param transparent whether the listening socket is transparent ({@code IP_TRANSPARENT}): it accepts
 *     connections the kernel redirected to it (iptables {@code TPROXY}) for addresses that are not
 *     the gateway's, each keeping the address it was sent to as its local address
 */
public record ListenerConfig(
        String name,
        String address,
        int port,
        List<String> protocols,
        RouteConfig routeConfig,
        HttpOptions http,
        AccessLogConfig accessLog,
        Map<String, ProtocolOptions> protocolOptions,
        Http2Options http2,
        Optional<TlsConfig> tls,
        ConnectionLimits limits,
        List<StreamFilterConfig> filters,
        List<NetworkFilterEntry> networkFilters,
        Optional<ProxyProtocolConfig> proxyProtocol,
        boolean transparent) {

    /** The protocol of a listener whose terminal network filter serves its connections. */
    public static final String TCP = "tcp";

    public ListenerConfig {
        protocols = List.copyOf(protocols);
        protocolOptions = Map.copyOf(protocolOptions);
        filters = List.copyOf(filters);
        networkFilters = List.copyOf(networkFilters);
        requireNonNull(proxyProtocol, "proxyProtocol");
    }

    /** A listener whose socket is not transparent. */
    public ListenerConfig(String name, String address, int port, List<String> protocols, RouteConfig routeConfig,
            HttpOptions http, AccessLogConfig accessLog, Map<String, ProtocolOptions> protocolOptions,
            Http2Options http2, Optional<TlsConfig> tls, ConnectionLimits limits, List<StreamFilterConfig> filters,
            List<NetworkFilterEntry> networkFilters, Optional<ProxyProtocolConfig> proxyProtocol) {
        this(name, address, port, protocols, routeConfig, http, accessLog, protocolOptions, http2, tls, limits,
                filters, networkFilters, proxyProtocol, false);
    }

    /** A listener that reads no PROXY protocol header. */
    public ListenerConfig(String name, String address, int port, List<String> protocols, RouteConfig routeConfig,
            HttpOptions http, AccessLogConfig accessLog, Map<String, ProtocolOptions> protocolOptions,
            Http2Options http2, Optional<TlsConfig> tls, ConnectionLimits limits, List<StreamFilterConfig> filters,
            List<NetworkFilterEntry> networkFilters) {
        this(name, address, port, protocols, routeConfig, http, accessLog, protocolOptions, http2, tls, limits,
                filters, networkFilters, Optional.empty());
    }

    /** A listener without network filters. */
    public ListenerConfig(String name, String address, int port, List<String> protocols, RouteConfig routeConfig,
            HttpOptions http, AccessLogConfig accessLog, Map<String, ProtocolOptions> protocolOptions,
            Http2Options http2, Optional<TlsConfig> tls, ConnectionLimits limits, List<StreamFilterConfig> filters) {
        this(name, address, port, protocols, routeConfig, http, accessLog, protocolOptions, http2, tls, limits,
                filters, List.of());
    }

    /** A listener without stream or network filters. */
    public ListenerConfig(String name, String address, int port, List<String> protocols, RouteConfig routeConfig,
            HttpOptions http, AccessLogConfig accessLog, Map<String, ProtocolOptions> protocolOptions,
            Http2Options http2, Optional<TlsConfig> tls, ConnectionLimits limits) {
        this(name, address, port, protocols, routeConfig, http, accessLog, protocolOptions, http2, tls, limits,
                List.of());
    }

    /** This listener serving {@code routes} instead of its own. */
    public ListenerConfig withRoutes(RouteConfig routes) {
        return new ListenerConfig(name, address, port, protocols, routes, http, accessLog, protocolOptions, http2, tls,
                limits, filters, networkFilters, proxyProtocol, transparent);
    }

    /** The settings of {@code protocol} on this listener, or null when the listener does not serve it. */
    public ProtocolOptions options(String protocol) {
        return protocolOptions.get(protocol);
    }

    /** A plaintext listener with default protocol settings, whose protocols have none of their own. */
    public ListenerConfig(String name, String address, int port, List<String> protocols, RouteConfig routeConfig,
            HttpOptions http, AccessLogConfig accessLog) {
        this(name, address, port, protocols, routeConfig, http, accessLog, Map.of(), Http2Options.DEFAULTS,
                Optional.empty(), ConnectionLimits.DEFAULTS);
    }
}
