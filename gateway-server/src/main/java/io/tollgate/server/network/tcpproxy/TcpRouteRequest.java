package io.tollgate.server.network.tcpproxy;

import io.tollgate.core.route.RouteRequest;
import java.net.InetSocketAddress;

/**
 * A TCP connection as a load balancer sees it: no authority, path or header, only the client's
 * address, which the {@code source_ip} hash policy reads, and where it was sent before a
 * transparent listener took it, which an {@code original_dst} cluster reads.
 */
record TcpRouteRequest(String clientAddress, InetSocketAddress originalDestination) implements RouteRequest {

    @Override
    public String authority() {
        return "";
    }

    @Override
    public String path() {
        return "/";
    }

    @Override
    public String header(String name) {
        return null;
    }
}
