package io.tollgate.server.network.clientip;

import io.tollgate.core.config.CidrRange;
import io.tollgate.core.config.NetworkFilterConfig;
import java.util.List;

/**
 * The settings of the {@code client_ip} network filter.
 *
 * @param allow when not empty, only clients in one of these ranges are served
 * @param deny clients in one of these ranges are refused, whatever {@code allow} says
 */
record ClientIpConfig(List<CidrRange> allow, List<CidrRange> deny) implements NetworkFilterConfig {

    ClientIpConfig {
        allow = List.copyOf(allow);
        deny = List.copyOf(deny);
    }

    /** Only the client's address matters, read when the connection opens. */
    @Override
    public boolean inspectsBytes() {
        return false;
    }
}
