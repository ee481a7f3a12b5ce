package io.tollgate.server.listener;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.tollgate.core.metrics.ListenerMetrics;

/**
 * Closes a connection whose decoder produced no first frame within the timeout, counted in
 * {@code tollgate.downstream.cx.rejected{reason="first_frame_timeout"}}: a client that connects and
 * then sends nothing, or never a whole frame, holds a descriptor only that long. It leaves the
 * pipeline at the first frame, so the frames after it pass no extra handler.
 */
final class FirstFrameTimeout extends ChannelInboundHandlerAdapter {

    private final HandlerTimeout timeout;

    FirstFrameTimeout(long timeoutNanos, ListenerMetrics metrics) {
        this.timeout = new HandlerTimeout(timeoutNanos, metrics, "first_frame_timeout");
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        timeout.start(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        timeout.cancel();
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
        timeout.cancel();
        ctx.fireChannelInactive();
    }
}
