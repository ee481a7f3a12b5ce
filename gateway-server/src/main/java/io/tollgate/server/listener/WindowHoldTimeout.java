package io.tollgate.server.listener;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;

/**
 * Resets an HTTP/2 stream that nothing could be written to for the hold timeout because the
 * client keeps its flow-control window closed (or stopped reading the connection). Reading from
 * the upstream pauses meanwhile, so memory stays bounded; this bounds the time an upstream stream
 * and its resources stay held by such a client.
 */
final class WindowHoldTimeout extends IdleStateHandler {

    WindowHoldTimeout(long holdMillis) {
        super(0, holdMillis, 0, TimeUnit.MILLISECONDS);
    }

    @Override
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent evt) {
        if (evt.state() == IdleState.WRITER_IDLE && !ctx.channel().isWritable()) {
            ctx.close();
        }
    }
}
