package io.tollgate.server.listener;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.timeout.IdleStateHandler;
import io.tollgate.core.config.Http2Options;
import io.tollgate.core.protocol.ProtocolDetector;
import io.tollgate.protocols.http2.Http2Codecs;
import io.tollgate.protocols.http2.Http2Detector;
import io.tollgate.server.http.HttpProxy;
import java.util.concurrent.TimeUnit;

/**
 * h2c on a listener, with prior knowledge (detected from the connection preface) or after an
 * upgrade from HTTP/1.1 (see {@link H2cUpgradeCodecs}). The connection's pipeline is the frame
 * codec, the idle handler and the HTTP/2 connection handler, which serves every stream itself
 * (no child channel per stream) with the same proxy logic HTTP/1 uses. Idleness is watched on
 * reads only: a connection with no stream open writes nothing unprompted, and a handler that
 * also watched writes would add a listener to every frame written.
 */
final class Http2DownstreamProtocol implements DownstreamProtocol {

    private static final ProtocolDetector DETECTOR = new Http2Detector();

    private final HttpProxy proxy;
    private final Http2Options options;

    Http2DownstreamProtocol(HttpProxy proxy) {
        this.proxy = proxy;
        this.options = proxy.listenerConfig().http2();
    }

    @Override
    public ProtocolDetector detector() {
        return DETECTOR;
    }

    @Override
    public void configure(ChannelPipeline pipeline) {
        long idleMillis = proxy.listenerConfig().http().idleTimeout().toMillis();
        pipeline.addLast(PipelineNames.CODEC, newCodec())
                .addLast(PipelineNames.IDLE, new IdleStateHandler(idleMillis, 0, 0, TimeUnit.MILLISECONDS))
                .addLast(PipelineNames.PROXY, proxy.newHttp2ConnectionHandler(false));
    }

    Http2FrameCodec newCodec() {
        return Http2Codecs.server(options);
    }

    HttpProxy proxy() {
        return proxy;
    }
}
