package io.tollgate.server.upstream;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pooled HTTP/1.1 connection to an upstream host, and the last handler of its pipeline. It
 * serves one exchange at a time: while bound it hands everything to that exchange's
 * {@link UpstreamListener}; while idle in the pool it closes on anything unexpected.
 */
final class Http1UpstreamConnection extends ExchangeBoundHandler {

    private static final Logger log = LoggerFactory.getLogger(Http1UpstreamConnection.class);

    private final Http1ConnectionPool pool;

    Http1UpstreamConnection(Http1ConnectionPool pool) {
        this.pool = pool;
    }

    @Override
    void unbind() {
        super.unbind();
        Channel channel = channel();
        if (!channel.config().isAutoRead()) {
            channel.config().setAutoRead(true);
        }
    }

    boolean isActive() {
        return channel() != null && channel().isActive();
    }

    @Override
    void unexpected(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
        log.debug("{}: unexpected data on an idle upstream connection, closing", pool.host());
        ctx.close();
    }

    @Override
    void closed() {
        pool.closed(this);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent && !bound()) {
            ctx.close();
            return;
        }
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("{}: upstream connection failed", pool.host(), cause);
        ctx.close();
    }
}
