package io.tollgate.server.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;

/**
 * An all-idle {@link IdleStateHandler} that takes a flush, rather than the completion of each
 * write, as the connection's write activity. Netty's handler turns every write's void promise into
 * a real one to hear when it completes: a promise, its listener array and a notification per frame,
 * which on a multiplexed RPC connection is one each way per call. A flush hands what was written to
 * the socket, so the idle time still runs from the last read or write, counted from the flush that
 * sent it.
 */
public final class FlushIdleStateHandler extends IdleStateHandler {

    /** @param allIdleTime how long without a read or a flush before an {@code ALL_IDLE} event; 0 for never */
    public FlushIdleStateHandler(long allIdleTime, TimeUnit unit) {
        super(0, 0, allIdleTime, unit);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ctx.write(msg, promise);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        ctx.flush();
        resetWriteTimeout();
    }
}
