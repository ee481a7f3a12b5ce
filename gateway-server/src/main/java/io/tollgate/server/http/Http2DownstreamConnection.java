package io.tollgate.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.protocols.http2.Http2Codecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a downstream HTTP/2 connection's pipeline (each stream has its own
 * {@link HttpDownstreamHandler} in a child channel). It counts the connection in the listener's
 * metrics, widens the connection's flow-control window so that one paused stream does not stall
 * the others, closes the connection when it idles with no stream open, and drops the
 * connection-level frames the multiplexer passes on (SETTINGS, PING, GOAWAY: Netty's codec has
 * already acted on them).
 */
final class Http2DownstreamConnection extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(Http2DownstreamConnection.class);

    private final HttpProxy proxy;
    private final boolean upgraded;

    /** @param upgraded whether the connection began as HTTP/1.1, whose handler already counted it */
    Http2DownstreamConnection(HttpProxy proxy, boolean upgraded) {
        this.proxy = proxy;
        this.upgraded = upgraded;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (!upgraded) {
            proxy.listenerMetrics().connectionOpened();
        }
        int increment = Http2Codecs.connectionWindowIncrement(proxy.listenerConfig().http2());
        if (increment > 0) {
            ctx.writeAndFlush(new DefaultHttp2WindowUpdateFrame(increment));
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            Http2FrameCodec codec = ctx.pipeline().get(Http2FrameCodec.class);
            if (codec == null || codec.connection().numActiveStreams() == 0) {
                ctx.close();
            }
            return;
        }
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        proxy.listenerMetrics().connectionClosed();
    }

    /**
     * An {@link Http2Exception} is left to the codec, which answers it with the right RST_STREAM
     * or GOAWAY code; closing here first would send a graceful GOAWAY with NO_ERROR instead.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("downstream HTTP/2 connection {} failed", ctx.channel().remoteAddress(), cause);
        if (!(cause instanceof Http2Exception)) {
            ctx.close();
        }
    }
}
