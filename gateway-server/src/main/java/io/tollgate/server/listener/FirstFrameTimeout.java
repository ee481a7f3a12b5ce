package io.tollgate.server.listener;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.metrics.ListenerMetrics;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection whose decoder produced no first frame within the timeout, counted in
 * {@code tollgate.downstream.cx.rejected{reason="first_frame_timeout"}}: a client that connects and
 * then sends nothing, or never a whole frame, holds a descriptor only that long. It leaves the
 * pipeline at the first frame, so the frames after it pass no extra handler.
 */
final class FirstFrameTimeout extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(FirstFrameTimeout.class);

    private final long timeoutNanos;
    private final ListenerMetrics metrics;
    private ScheduledFuture<?> timer;

    FirstFrameTimeout(long timeoutNanos, ListenerMetrics metrics) {
        this.timeoutNanos = timeoutNanos;
        this.metrics = metrics;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        timer = ctx.executor().schedule(() -> expired(ctx), timeoutNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        timer.cancel(false);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ctx.fireChannelRead(msg);
        if (!ctx.isRemoved()) {
            ctx.pipeline().remove(this);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        timer.cancel(false);
        ctx.fireChannelInactive();
    }

    private void expired(ChannelHandlerContext ctx) {
        if (ctx.isRemoved() || !ctx.channel().isActive()) {
            return;
        }
        log.debug("{}: no frame within the first frame timeout, closing", ctx.channel().remoteAddress());
        metrics.connectionRejected("first_frame_timeout");
        ctx.close();
    }
}
