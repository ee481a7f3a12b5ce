package io.tollgate.core.config;

import java.util.List;
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
 * @param bolt limits and timeouts of SOFA Bolt connections
 * @param http2 settings and protections of HTTP/2 connections
 * @param tls how connections are decrypted, or empty for plaintext connections
 */
public record ListenerConfig(
        String name,
        String address,
        int port,
        List<String> protocols,
        RouteConfig routeConfig,
        HttpOptions http,
        AccessLogConfig accessLog,
        BoltOptions bolt,
        Http2Options http2,
        Optional<TlsConfig> tls) {

    public ListenerConfig {
        protocols = List.copyOf(protocols);
    }

    /** A listener with the default {@link BoltOptions} and {@link Http2Options}. */
    public ListenerConfig(String name, String address, int port, List<String> protocols, RouteConfig routeConfig,
            HttpOptions http, AccessLogConfig accessLog) {
        this(name, address, port, protocols, routeConfig, http, accessLog, BoltOptions.DEFAULTS);
    }

    /** A listener with the default {@link Http2Options}. */
    public ListenerConfig(String name, String address, int port, List<String> protocols, RouteConfig routeConfig,
            HttpOptions http, AccessLogConfig accessLog, BoltOptions bolt) {
        this(name, address, port, protocols, routeConfig, http, accessLog, bolt, Http2Options.DEFAULTS);
    }

    /** A plaintext listener. */
    public ListenerConfig(String name, String address, int port, List<String> protocols, RouteConfig routeConfig,
            HttpOptions http, AccessLogConfig accessLog, BoltOptions bolt, Http2Options http2) {
        this(name, address, port, protocols, routeConfig, http, accessLog, bolt, http2, Optional.empty());
    }
}
