package io.tollgate.server.listener;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.timeout.IdleStateHandler;
import io.tollgate.core.config.HttpOptions;
import io.tollgate.core.protocol.ProtocolDetector;
import io.tollgate.protocols.http1.Http1Decoders;
import io.tollgate.protocols.http1.Http1Detector;
import io.tollgate.server.http1.Http1Proxy;
import java.util.concurrent.TimeUnit;

/** HTTP/1.x on a listener: Netty's server codec in front of the HTTP/1 proxy handler. */
final class Http1DownstreamProtocol implements DownstreamProtocol {

    private static final ProtocolDetector DETECTOR = new Http1Detector();

    private final Http1Proxy proxy;

    Http1DownstreamProtocol(Http1Proxy proxy) {
        this.proxy = proxy;
    }

    @Override
    public ProtocolDetector detector() {
        return DETECTOR;
    }

    @Override
    public void configure(ChannelPipeline pipeline) {
        HttpOptions http = proxy.listenerConfig().http();
        pipeline.addLast(PipelineNames.HEAD_GUARD, Http1Decoders.headGuard(http.maxInitialLineBytes(), http.maxHeaderBytes()))
                .addLast(PipelineNames.CODEC, Http1Decoders.serverCodec(http.maxInitialLineBytes(), http.maxHeaderBytes()))
                .addLast(PipelineNames.IDLE, new IdleStateHandler(0, 0, http.idleTimeout().toMillis(), TimeUnit.MILLISECONDS))
                .addLast(PipelineNames.PROXY, proxy.newHandler());
    }
}
