package io.tollgate.server.listener;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.metrics.ListenerMetrics;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The timeout of a handler that waits for a connection's first bytes or frame: unless cancelled
 * first, it closes the connection while the handler is still in its pipeline, counted in
 * {@code tollgate.downstream.cx.rejected} under its reason. One per connection.
 */
final class HandlerTimeout {

    private static final Logger log = LoggerFactory.getLogger(HandlerTimeout.class);

    private final ScheduledFuture<?> timer;

    private HandlerTimeout(ChannelHandlerContext ctx, long timeoutNanos, ListenerMetrics metrics, String reason) {
        this.timer = ctx.executor().schedule(() -> expired(ctx, metrics, reason), timeoutNanos, TimeUnit.NANOSECONDS);
    }

    /** Starts the timeout of the handler of {@code ctx}; MUST run on its event loop. */
    static HandlerTimeout start(ChannelHandlerContext ctx, long timeoutNanos, ListenerMetrics metrics, String reason) {
        return new HandlerTimeout(ctx, timeoutNanos, metrics, reason);
    }

    void cancel() {
        timer.cancel(false);
    }

    private static void expired(ChannelHandlerContext ctx, ListenerMetrics metrics, String reason) {
        if (ctx.isRemoved() || !ctx.channel().isActive()) {
            return;
        }
        log.debug("{}: {}, closing", ctx.channel().remoteAddress(), reason);
        metrics.connectionRejected(reason);
        ctx.close();
    }
}
