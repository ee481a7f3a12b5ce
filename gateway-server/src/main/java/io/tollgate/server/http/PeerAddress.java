package io.tollgate.server.http;

import io.netty.channel.Channel;
import io.tollgate.server.tls.PeerIdentity;
import io.tollgate.server.tls.ServerName;
import io.tollgate.server.transport.ClientAddresses;
import io.tollgate.server.transport.OriginalDestination;
import java.net.InetSocketAddress;

/**
 * The client's address of one downstream connection as text, and the identity of its verified
 * TLS client certificate, formatted on first use and then kept, so that a connection (and every
 * stream of an HTTP/2 connection) pays for them once.
 */
final class PeerAddress {

    private final Channel connection;
    private String ip;
    private String text;
    private String identity;
    private boolean identityRead;
    private String serverName;
    private boolean serverNameRead;

    PeerAddress(Channel connection) {
        this.connection = connection;
    }

    /** The client's IP address, as {@code X-Forwarded-For} carries it. */
    String ip() {
        if (ip == null) {
            ip = ClientAddresses.ip(connection);
        }
        return ip;
    }

    /** The principal of the client's verified certificate, or null when it presented none. */
    String identity() {
        if (!identityRead) {
            PeerIdentity peer = PeerIdentity.of(connection);
            identity = peer == null ? null : peer.principal();
            identityRead = true;
        }
        return identity;
    }

    /** The server name the client asked for in its TLS handshake, or null. */
    String serverName() {
        if (!serverNameRead) {
            serverName = ServerName.requested(connection);
            serverNameRead = true;
        }
        return serverName;
    }

    /** Where the client sent the connection before a transparent listener took it, or null when it was not redirected. */
    InetSocketAddress originalDestination() {
        return OriginalDestination.of(connection);
    }

    /** The client's address and port, as the access log shows it. */
    String text() {
        if (text == null) {
            text = ClientAddresses.text(connection);
        }
        return text;
    }
}
