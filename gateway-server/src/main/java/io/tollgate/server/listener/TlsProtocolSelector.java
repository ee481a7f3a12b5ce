package io.tollgate.server.listener;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SniCompletionEvent;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.server.tls.ListenerTls;
import io.tollgate.server.transport.HandlerFailures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for a TLS connection's handshake, then installs the protocol the client and the listener
 * agreed on by ALPN, or, when they agreed on none, what a plaintext connection of the listener
 * gets, and removes itself. A handshake that fails or times out is counted and closes the
 * connection; nothing reaches a protocol before the handshake is done.
 */
final class TlsProtocolSelector extends ChannelInboundHandlerAdapter {

    /** The error reason counted when a handshake fails, e.g. on plaintext bytes or a bad client hello. */
    static final String HANDSHAKE_FAILED = "tls_handshake_failed";
    /** The error reason counted when a client does not finish its handshake in time. */
    static final String HANDSHAKE_TIMEOUT = "tls_handshake_timeout";
    /** The error reason counted when a client certificate is missing or not in the SAN allow-list. */
    static final String CLIENT_CERTIFICATE_REFUSED = "tls_client_certificate_refused";

    private static final Logger log = LoggerFactory.getLogger(TlsProtocolSelector.class);

    private final ListenerProtocols protocols;
    private final ListenerTls tls;
    private final ListenerMetrics metrics;

    TlsProtocolSelector(ListenerProtocols protocols, ListenerTls tls, ListenerMetrics metrics) {
        this.protocols = protocols;
        this.tls = tls;
        this.metrics = metrics;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SniCompletionEvent sni && !sni.isSuccess()) {
            failed(ctx, sni.cause());
            return;
        }
        if (!(evt instanceof SslHandshakeCompletionEvent handshake)) {
            ctx.fireUserEventTriggered(evt);
            return;
        }
        if (!handshake.isSuccess()) {
            failed(ctx, handshake.cause());
            return;
        }
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        if (tls.verifyPeer(ctx.channel(), ssl) == ListenerTls.PeerVerdict.REFUSED) {
            metrics.error(CLIENT_CERTIFICATE_REFUSED);
            ctx.close();
            return;
        }
        String alpn = ssl.applicationProtocol();
        if (alpn == null) {
            protocols.installByFirstBytes(ctx.pipeline());
        } else {
            DownstreamProtocol protocol = protocols.forAlpn(alpn);
            if (protocol == null) {
                log.error("{}: ALPN agreed on {}, which the listener does not serve (expected only the names its"
                        + " TLS context offers), closing", ctx.channel().remoteAddress(), alpn);
                ctx.close();
                return;
            }
            protocol.configure(ctx.pipeline());
        }
        ctx.pipeline().remove(this);
    }

    private void failed(ChannelHandlerContext ctx, Throwable cause) {
        metrics.error(cause instanceof SslHandshakeTimeoutException ? HANDSHAKE_TIMEOUT : HANDSHAKE_FAILED);
        log.debug("{}: TLS handshake failed, closing: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    /**
     * Before the handshake is done no protocol is installed to handle an error; a failed handshake
     * was counted already when its event arrived, which comes first. The error itself is counted
     * by kind like any that ends a connection.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        HandlerFailures.caught(log, ctx.channel(), cause, metrics.connectionErrors(), true);
        ctx.close();
    }
}
