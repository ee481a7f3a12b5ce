package io.tollgate.server.tls;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import java.util.List;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLSession;

/** Reads the server name a TLS client asked for (SNI), which filters such as RBAC match on. */
public final class ServerName {

    private ServerName() {
    }

    /** The host name {@code channel}'s client sent in its handshake, or null (plaintext, or none sent). */
    public static String requested(Channel channel) {
        SslHandler tls = channel.pipeline().get(SslHandler.class);
        if (tls == null) {
            return null;
        }
        SSLSession session = tls.engine().getSession();
        if (!(session instanceof ExtendedSSLSession extended)) {
            return null;
        }
        List<SNIServerName> names = extended.getRequestedServerNames();
        for (SNIServerName name : names) {
            if (name instanceof SNIHostName host) {
                return host.getAsciiName();
            }
        }
        return null;
    }
}
