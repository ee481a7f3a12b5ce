package io.tollgate.server.upstream;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpObject;
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
final class Http2UpstreamStream extends ChannelInboundHandlerAdapter implements UpstreamConnection {

    private static final Logger log = LoggerFactory.getLogger(Http2UpstreamStream.class);

    private final Http2UpstreamConnection connection;
    private Channel channel;
    private UpstreamListener listener;

    Http2UpstreamStream(Http2UpstreamConnection connection) {
        this.connection = connection;
    }

    @Override
    public Channel channel() {
        return channel;
    }

    @Override
    public void bind(UpstreamListener listener) {
        this.listener = listener;
    }

    void unbind() {
        this.listener = null;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.channel = ctx.channel();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        UpstreamListener current = listener;
        if (current != null && msg instanceof HttpObject) {
            current.onResponse((HttpObject) msg);
            return;
        }
        if (msg instanceof Http2ResetFrame) {
            log.debug("{}: stream reset by the host with {}", connection.pool().host(), ((Http2ResetFrame) msg).errorCode());
        }
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        UpstreamListener current = listener;
        if (current != null) {
            current.onResponseBatchComplete();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        UpstreamListener current = listener;
        if (current != null) {
            current.onUpstreamWritabilityChanged(ctx.channel().isWritable());
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connection.streamClosed();
        UpstreamListener current = listener;
        listener = null;
        if (current != null) {
            current.onUpstreamClosed();
        }
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
