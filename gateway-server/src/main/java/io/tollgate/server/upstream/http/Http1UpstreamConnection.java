package io.tollgate.server.upstream.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.server.transport.HandlerFailures;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pooled HTTP/1.1 connection to an upstream host, and the last handler of its pipeline. It
 * serves one exchange at a time: while an {@link UpstreamListener} is bound, responses, read-batch
 * ends, writability changes and the close go to it; while idle in the pool it closes on anything
 * unexpected.
 *
 * <p>It tells apart what its close means: a request none of whose bytes left (its write failed on
 * a connection whose death was not yet read) is refused, safe to send elsewhere. A close while a
 * request waits for its answer and no byte of it came, or a reset (not a plain close) while idle,
 * tells the pool the host died; a plain close while idle is a host's keep-alive timeout.
 */
final class Http1UpstreamConnection extends ChannelInboundHandlerAdapter implements UpstreamConnection {

    private static final Logger log = LoggerFactory.getLogger(Http1UpstreamConnection.class);

    private final Http1ConnectionPool pool;
    private Channel channel;
    private UpstreamListener listener;
    /**
     * The write of the bound exchange's request head, null before it: once the connection closed,
     * its outcome says whether the request left (Netty fails every write still queued before it
     * reports the close).
     */
    private ChannelFuture headWrite;
    /** Whether a byte of the bound exchange's response arrived. */
    private boolean responseStarted;
    /** Whether the connection failed with an I/O error (a reset), rather than closing cleanly. */
    private boolean reset;

    Http1UpstreamConnection(Http1ConnectionPool pool) {
        this.pool = pool;
    }

    Channel channel() {
        return channel;
    }

    @Override
    public void write(HttpObject msg) {
        if (headWrite == null) {
            headWrite = channel.write(msg);
        } else {
            channel.write(msg);
        }
    }

    @Override
    public void flush() {
        channel.flush();
    }

    @Override
    public boolean isWritable() {
        return channel.isWritable();
    }

    @Override
    public void setReading(boolean reading) {
        channel.config().setAutoRead(reading);
    }

    @Override
    public void bind(UpstreamListener listener) {
        this.listener = listener;
    }

    /** Forgets the bound exchange and reads again, so that a close while idle is noticed. */
    void unbind() {
        listener = null;
        headWrite = null;
        responseStarted = false;
        if (!channel.config().isAutoRead()) {
            channel.config().setAutoRead(true);
        }
    }

    boolean isActive() {
        return channel != null && channel.isActive();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.channel = ctx.channel();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        UpstreamListener current = listener;
        if (current != null && msg instanceof HttpObject) {
            responseStarted = true;
            current.onResponse((HttpObject) msg);
            return;
        }
        ReferenceCountUtil.release(msg);
        log.debug("{}: unexpected data on an idle upstream connection, closing", pool.host());
        ctx.close();
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
        UpstreamListener current = listener;
        listener = null;
        pool.closed(this, !responseStarted && (reset || current != null));
        if (current == null) {
            return;
        }
        if (headWrite != null && headWrite.isSuccess()) {
            current.onUpstreamClosed();
        } else {
            current.onUpstreamRefused();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent && listener == null) {
            ctx.close();
            return;
        }
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof PrematureChannelClosureException) {
            // the decoder's word that a response was owed comes after channelInactive, which already
            // told the pool and the exchange; whoever closed (the host, or this side because the
            // client left) it is routine, not a failure of a handler
            log.debug("{}: {}", pool.host(), cause.getMessage());
            return;
        }
        HandlerFailures.caught(log, ctx.channel(), cause, pool.connectionErrors(), false);
        reset = cause instanceof IOException;
        ctx.close();
    }
}
