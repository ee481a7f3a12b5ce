package io.tollgate.server.transport;

import io.netty.channel.Channel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Where a client sent an accepted connection before the kernel redirected it to a transparent
 * listener: with iptables {@code TPROXY}, the accepted socket's local address is that original
 * destination. A connection whose local address is the listener's own (same port, and the same IP
 * unless the listener binds every address) was not redirected: it has no original destination, so
 * that an {@code original_dst} cluster refuses it rather than connecting back to the gateway.
 */
public final class OriginalDestination {

    private OriginalDestination() {
    }

    /** The original destination of accepted connection {@code connection}, or null when it was not redirected. */
    public static InetSocketAddress of(Channel connection) {
        Channel listening = connection.parent();
        if (listening == null || !(connection.localAddress() instanceof InetSocketAddress local)) {
            return null;
        }
        SocketAddress bound = listening.localAddress();
        if (!(bound instanceof InetSocketAddress own) || local.getPort() != own.getPort()) {
            return local;
        }
        InetAddress ownAddress = own.getAddress();
        return ownAddress.isAnyLocalAddress() || ownAddress.equals(local.getAddress()) ? null : local;
    }
}
