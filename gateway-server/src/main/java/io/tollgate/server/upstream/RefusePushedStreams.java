package io.tollgate.server.upstream;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The handler for streams an upstream opens towards the gateway. The gateway disables server
 * push, so such a stream is a protocol violation: it is closed (reset) at once.
 */
@ChannelHandler.Sharable
final class RefusePushedStreams extends ChannelInboundHandlerAdapter {

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        ctx.channel().close();
    }
}
