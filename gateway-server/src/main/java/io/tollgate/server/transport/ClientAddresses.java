package io.tollgate.server.transport;

import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** Formats a connection's client address for headers, hashing and logs. */
public final class ClientAddresses {

    private ClientAddresses() {
    }

    /** The client's IP address as text, without the port, or null when the channel has none. */
    public static String ip(Channel channel) {
        SocketAddress remote = channel.remoteAddress();
        if (remote instanceof InetSocketAddress && ((InetSocketAddress) remote).getAddress() != null) {
            return ((InetSocketAddress) remote).getAddress().getHostAddress();
        }
        return null;
    }
}
