package io.tollgate.server.upstream;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stream of an upstream HTTP/2 connection, serving one exchange, and the last handler of the
 * stream channel (after the frame to {@code HttpObject} codec). A RST_STREAM from the host closes
 * the stream channel, which the exchange sees as {@link UpstreamListener#onUpstreamClosed()}.
 * Reading is paused through the stream channel's auto-read, which withholds WINDOW_UPDATE, so a
 * slow downstream slows the host down instead of filling the gateway's memory.
 */
final class Http2UpstreamStream extends ExchangeBoundHandler {

    private static final Logger log = LoggerFactory.getLogger(Http2UpstreamStream.class);

    private final Http2UpstreamConnection connection;

    Http2UpstreamStream(Http2UpstreamConnection connection) {
        this.connection = connection;
    }

    @Override
    void unexpected(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Http2ResetFrame) {
            log.debug("{}: stream reset by the host with {}", connection.pool().host(), ((Http2ResetFrame) msg).errorCode());
        }
        ReferenceCountUtil.release(msg);
    }

    @Override
    void closed() {
        connection.streamClosed();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("{}: upstream HTTP/2 stream failed", connection.pool().host(), cause);
        ctx.close();
    }
}
