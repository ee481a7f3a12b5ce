package io.tollgate.server.health;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Promise;
import io.tollgate.protocols.bolt.BoltDecoder;
import io.tollgate.protocols.bolt.BoltDialect;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltHeartbeats;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.router.cluster.Host;

/**
 * Sends a Bolt v1 heartbeat and passes when the host acknowledges it with status success, as a
 * SOFA Bolt server does on its own.
 */
final class BoltHealthChecker implements HealthChecker {

    private static final int REQUEST_ID = 1;

    @Override
    public void initProbe(ChannelPipeline pipeline, Host host, Promise<Boolean> verdict) {
        pipeline.addLast(new BoltDecoder());
        pipeline.addLast(new ProbeHandler(verdict) {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                ctx.writeAndFlush(BoltHeartbeats.request(ctx.alloc(), BoltDialect.V1_HESSIAN2, REQUEST_ID));
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                try {
                    if (msg instanceof BoltFrame frame) {
                        verdict.trySuccess(frame.kind() == BoltFrame.Kind.HEARTBEAT_ACK
                                && frame.requestId() == REQUEST_ID
                                && frame.status() == BoltStatus.SUCCESS.code());
                    }
                } finally {
                    ReferenceCountUtil.release(msg);
                }
            }
        });
    }
}
