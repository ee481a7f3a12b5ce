package io.tollgate.server.transport;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.tollgate.server.proxyprotocol.ProxyHeader;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * The one place a downstream connection's client address is read, for routing, filters, headers,
 * hashing and logs: the address a PROXY protocol header carried (see {@link #carry}), else the
 * connection's peer. Connections of listeners without {@code proxy_protocol} pay one attribute
 * look-up per connection.
 */
public final class ClientAddresses {

    private static final AttributeKey<ProxyHeader> PROXY_HEADER = AttributeKey.valueOf("tollgate.proxy-header");

    private ClientAddresses() {
    }

    /**
     * Records what the PROXY protocol header of {@code channel} said, before anything reads its
     * client; a header that carries no address ({@code LOCAL}, {@code UNKNOWN}) leaves the peer the client.
     */
    public static void carry(Channel channel, ProxyHeader header) {
        channel.attr(PROXY_HEADER).set(header);
    }

    /** The PROXY protocol header of {@code channel}, or null when it had none. */
    public static ProxyHeader proxyHeader(Channel channel) {
        return channel.hasAttr(PROXY_HEADER) ? channel.attr(PROXY_HEADER).get() : null;
    }

    /** The client's address and port: the one a PROXY protocol header carried, else the peer's. */
    public static SocketAddress remote(Channel channel) {
        ProxyHeader header = proxyHeader(channel);
        return header != null && header.carriesAddress() ? header.source() : channel.remoteAddress();
    }

    /** The address and port the client connected to: as a PROXY protocol header said, else this side's. */
    public static SocketAddress local(Channel channel) {
        ProxyHeader header = proxyHeader(channel);
        return header != null && header.carriesAddress() ? header.destination() : channel.localAddress();
    }

    /** The client's IP address as text, without the port, or null when the channel has none. */
    public static String ip(Channel channel) {
        SocketAddress remote = remote(channel);
        if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return null;
    }

    /** The client's address and port as text, as the access log shows it. */
    public static String text(Channel channel) {
        return String.valueOf(remote(channel));
    }
}
