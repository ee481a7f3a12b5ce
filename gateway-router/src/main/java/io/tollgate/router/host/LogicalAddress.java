package io.tollgate.router.host;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Where the one host of a {@code logical_dns} cluster connects now: the first address of the
 * latest answer for its name. The host's identity (its name and port) stays while this changes,
 * so its pooled connections, health and outlier state stay too, and only new connections go to
 * the new address. Set by the control thread, read by event loops when they connect.
 */
public final class LogicalAddress {

    private volatile InetSocketAddress current;

    /** The address new connections go to, or null before the first answer. */
    public InetSocketAddress current() {
        return current;
    }

    /** Makes new connections go to {@code address} at {@code port}; returns whether that changed anything. */
    public boolean set(InetAddress address, int port) {
        InetSocketAddress before = current;
        if (before != null && before.getAddress().equals(address) && before.getPort() == port) {
            return false;
        }
        current = new InetSocketAddress(address, port);
        return true;
    }
}
