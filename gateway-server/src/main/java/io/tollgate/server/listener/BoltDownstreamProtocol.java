package io.tollgate.server.listener;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.timeout.IdleStateHandler;
import io.tollgate.core.protocol.ProtocolDetector;
import io.tollgate.protocols.bolt.BoltDecoder;
import io.tollgate.protocols.bolt.BoltDetector;
import io.tollgate.server.bolt.BoltProxy;
import java.util.concurrent.TimeUnit;

/** SOFA Bolt (v1 and v2) on a listener: the Bolt decoder and encoder in front of the Bolt proxy handler. */
final class BoltDownstreamProtocol implements DownstreamProtocol {

    private static final ProtocolDetector DETECTOR = new BoltDetector();

    private final BoltProxy proxy;

    BoltDownstreamProtocol(BoltProxy proxy) {
        this.proxy = proxy;
    }

    @Override
    public ProtocolDetector detector() {
        return DETECTOR;
    }

    @Override
    public void configure(ChannelPipeline pipeline) {
        long idleMillis = proxy.listenerConfig().bolt().idleTimeout().toMillis();
        pipeline.addLast(PipelineNames.CODEC, new BoltDecoder(proxy.codecOptions()))
                .addLast(PipelineNames.ENCODER, proxy.encoder())
                .addLast(PipelineNames.IDLE, new IdleStateHandler(0, 0, idleMillis, TimeUnit.MILLISECONDS))
                .addLast(PipelineNames.PROXY, proxy.newHandler());
    }
}
