package io.tollgate.server.listener;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Resets an HTTP/2 stream that stayed unwritable for the hold timeout because the client keeps
 * its flow-control window closed (or stopped reading the connection). Reading from the upstream
 * pauses meanwhile, so memory stays bounded; this bounds the time an upstream stream and its
 * resources stay held by such a client. The timer only exists while the stream is unwritable,
 * so a stream that never fills its window costs no timer at all.
 */
final class WindowHoldTimeout extends ChannelInboundHandlerAdapter implements Runnable {

    private final long holdNanos;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> timer;

    WindowHoldTimeout(long holdNanos) {
        this.holdNanos = holdNanos;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable()) {
            if (timer == null) {
                timer = ctx.executor().schedule(this, holdNanos, TimeUnit.NANOSECONDS);
            }
        } else {
            cancelTimer();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelTimer();
        ctx.fireChannelInactive();
    }

    /** The hold timeout passed: resets the stream unless it became writable just now. */
    @Override
    public void run() {
        timer = null;
        if (!ctx.channel().isWritable()) {
            ctx.close();
        }
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
