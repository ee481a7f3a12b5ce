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

    private final long timeoutNanos;
    private final ListenerMetrics metrics;
    private final String reason;
    private ScheduledFuture<?> timer;

    /** A timeout of {@code timeoutNanos}, counted under {@code reason}, to be started when its handler is added. */
    HandlerTimeout(long timeoutNanos, ListenerMetrics metrics, String reason) {
        this.timeoutNanos = timeoutNanos;
        this.metrics = metrics;
        this.reason = reason;
    }

    /** A timeout started at once for the handler of {@code ctx}; MUST run on its event loop. */
    static HandlerTimeout start(ChannelHandlerContext ctx, long timeoutNanos, ListenerMetrics metrics, String reason) {
        HandlerTimeout timeout = new HandlerTimeout(timeoutNanos, metrics, reason);
        timeout.start(ctx);
        return timeout;
    }

    /** Starts the timeout of the handler of {@code ctx}; MUST run on its event loop. */
    void start(ChannelHandlerContext ctx) {
        timer = ctx.executor().schedule(() -> expired(ctx), timeoutNanos, TimeUnit.NANOSECONDS);
    }

    /** Stops the timeout, started or not. */
    void cancel() {
        if (timer != null) {
            timer.cancel(false);
        }
    }

    private void expired(ChannelHandlerContext ctx) {
        if (ctx.isRemoved() || !ctx.channel().isActive()) {
            return;
        }
        log.debug("{}: {}, closing", ctx.channel().remoteAddress(), reason);
        metrics.connectionRejected(reason);
        ctx.close();
    }
}
