package io.tollgate.core.route;

import java.net.InetSocketAddress;

/**
 * The protocol-independent view of a request that routing sees. HTTP fills it from the request
 * head; RPC protocols map their service name to the authority and read their header maps lazily.
 */
public interface RouteRequest {

    /** The virtual-host key: the HTTP Host without port, lower case, or an RPC service name. */
    String authority();

    /** The path without the query, starting with '/'; for RPC protocols {@code /service/method}. */
    String path();

    /** The raw query string after '?', or {@code null} when there is none (always, for RPC protocols). */
    default String query() {
        return null;
    }

    /** The first value of a header, or {@code null}; {@code name} is lower case. */
    String header(String name);

    /**
     * The downstream client's IP address as text, without the port (e.g. {@code 10.0.0.7} or
     * {@code 2001:db8::1}), or {@code null} when unknown; read by the {@code source_ip} hash
     * policy. Implementations SHOULD return a string formatted once per connection, not per call.
     */
    default String clientAddress() {
        return null;
    }

    /**
     * Where the client sent its connection before the kernel redirected it to a transparent
     * listener (TPROXY), or null when it was not redirected (it reached the listener's own address)
     * or the protocol does not tell; read by {@code original_dst} clusters only.
     */
    default InetSocketAddress originalDestination() {
        return null;
    }
}
