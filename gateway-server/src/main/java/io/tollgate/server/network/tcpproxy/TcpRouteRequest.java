package io.tollgate.server.network.tcpproxy;

import io.tollgate.core.route.RouteRequest;

/**
 * A TCP connection as a load balancer sees it: no authority, path or header, only the client's
 * address, which the {@code source_ip} hash policy reads.
 */
record TcpRouteRequest(String clientAddress) implements RouteRequest {

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
