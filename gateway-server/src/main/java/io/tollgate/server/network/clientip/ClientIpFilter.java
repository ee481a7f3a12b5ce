package io.tollgate.server.network.clientip;

import io.micrometer.core.instrument.Counter;
import io.tollgate.core.config.CidrRange;
import io.tollgate.core.filter.NetworkConnection;
import io.tollgate.core.filter.NetworkFilter;
import io.tollgate.core.filter.NetworkFilterStatus;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** Closes connections whose client address {@link ClientIpConfig} refuses; stateless, shared by a listener's connections. */
final class ClientIpFilter implements NetworkFilter {

    private final ClientIpConfig config;
    private final Counter refused;

    ClientIpFilter(ClientIpConfig config, Counter refused) {
        this.config = config;
        this.refused = refused;
    }

    @Override
    public NetworkFilterStatus onConnect(NetworkConnection connection) {
        if (admits(connection.remoteAddress())) {
            return NetworkFilterStatus.CONTINUE;
        }
        refused.increment();
        connection.close();
        return NetworkFilterStatus.STOP;
    }

    private boolean admits(SocketAddress remote) {
        if (!(remote instanceof InetSocketAddress inet) || inet.getAddress() == null) {
            return config.allow().isEmpty();
        }
        InetAddress address = inet.getAddress();
        for (CidrRange range : config.deny()) {
            if (range.matches(address)) {
                return false;
            }
        }
        if (config.allow().isEmpty()) {
            return true;
        }
        for (CidrRange range : config.allow()) {
            if (range.matches(address)) {
                return true;
            }
        }
        return false;
    }
}
