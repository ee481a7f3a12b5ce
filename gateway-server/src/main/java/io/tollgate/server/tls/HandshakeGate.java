package io.tollgate.server.tls;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;

/**
 * Sits after a client {@link io.netty.handler.ssl.SslHandler} and keeps the connection from the
 * handlers behind it until the handshake succeeded: they see {@code channelActive} only then, so
 * they start talking over an authenticated channel; when the handshake fails they hear nothing
 * of the connection (no inactive, no exception) and the connect future reports the failure.
 */
final class HandshakeGate extends ChannelInboundHandlerAdapter {

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // held back until the handshake is done
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (!(evt instanceof SslHandshakeCompletionEvent handshake)) {
            ctx.fireUserEventTriggered(evt);
            return;
        }
        if (handshake.isSuccess()) {
            ctx.pipeline().remove(this);
            ctx.fireChannelActive();
        } else {
            ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // the handlers behind never saw the connection active
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
