package io.tollgate.server.health;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Promise;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import io.tollgate.router.host.Host;

/**
 * Sends an RPC protocol's heartbeat and passes when the host acknowledges it as healthy, as Bolt
 * and Dubbo servers do on their own: the {@code bolt} and {@code dubbo} health check types.
 */
final class RpcHealthChecker implements HealthChecker {

    private static final long REQUEST_ID = 1;

    private final RpcCodec codec;

    RpcHealthChecker(RpcCodec codec) {
        this.codec = codec;
    }

    @Override
    public void initProbe(ChannelPipeline pipeline, Host host, Promise<Boolean> verdict) {
        pipeline.addLast(new RpcFrameDecoder(codec));
        pipeline.addLast(new ProbeHandler(verdict) {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                ctx.writeAndFlush(codec.heartbeat(ctx.alloc(), REQUEST_ID));
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                try {
                    if (msg instanceof RpcFrame frame) {
                        verdict.trySuccess(frame.kind() == RpcFrame.Kind.HEARTBEAT_ACK
                                && frame.requestId() == REQUEST_ID
                                && codec.healthy(frame));
                    }
                } finally {
                    ReferenceCountUtil.release(msg);
                }
            }
        });
    }
}
