package io.tollgate.server.health;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.util.concurrent.Promise;
import io.tollgate.router.host.Host;

/** Passes when a TCP connection to the host can be opened within the timeout. */
final class TcpHealthChecker implements HealthChecker {

    @Override
    public void initProbe(ChannelPipeline pipeline, Host host, Promise<Boolean> verdict) {
        pipeline.addLast(new ProbeHandler(verdict) {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                verdict.trySuccess(true);
            }
        });
    }
}
