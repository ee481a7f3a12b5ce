package io.tollgate.server.health;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Promise;

/**
 * The last handler of a probe connection: it fails the probe when the connection breaks or
 * closes before a verdict; subclasses ask their question and judge the answer.
 */
abstract class ProbeHandler extends ChannelInboundHandlerAdapter {

    protected final Promise<Boolean> verdict;

    ProbeHandler(Promise<Boolean> verdict) {
        this.verdict = verdict;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        verdict.trySuccess(false);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        verdict.trySuccess(false);
        ctx.close();
    }
}
