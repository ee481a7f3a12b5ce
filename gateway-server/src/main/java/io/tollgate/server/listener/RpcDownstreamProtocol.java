package io.tollgate.server.listener;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.timeout.IdleStateHandler;
import io.tollgate.core.protocol.ProtocolDetector;
import io.tollgate.server.rpc.RpcProxy;
import io.tollgate.server.transport.PipelineNames;
import java.util.concurrent.TimeUnit;

/**
 * A multiplexed RPC protocol (Bolt, Dubbo, a plug-in) on a listener: its codec's decoder and the
 * shared encoder in front of the RPC engine's handler, detected by the codec itself; the
 * connection must send its first frame within the protocol's {@code first_frame_timeout}.
 */
final class RpcDownstreamProtocol implements DownstreamProtocol {

    private final RpcProxy proxy;

    RpcDownstreamProtocol(RpcProxy proxy) {
        this.proxy = proxy;
    }

    @Override
    public ProtocolDetector detector() {
        return proxy.codec();
    }

    @Override
    public void configure(ChannelPipeline pipeline) {
        long idleMillis = proxy.idleTimeout().toMillis();
        pipeline.addLast(PipelineNames.CODEC, proxy.newDecoder())
                .addLast(PipelineNames.ENCODER, proxy.encoder())
                .addLast(PipelineNames.IDLE, new IdleStateHandler(0, 0, idleMillis, TimeUnit.MILLISECONDS))
                .addLast(PipelineNames.FIRST_FRAME, new FirstFrameTimeout(proxy.firstFrameTimeout().toNanos(),
                        proxy.listenerMetrics()))
                .addLast(PipelineNames.PROXY, proxy.newHandler());
    }
}
