package io.tollgate.server.listener;

import io.netty.channel.ChannelPipeline;
import io.tollgate.core.protocol.ProtocolDetector;
import io.tollgate.protocols.http2.Http2Detector;
import io.tollgate.server.http.HttpProxy;
import io.tollgate.server.transport.PipelineNames;

/**
 * h2c on a listener, with prior knowledge (detected from the connection preface) or after an
 * upgrade from HTTP/1.1 (see {@link H2cUpgradeCodecs}). The connection's pipeline holds one
 * handler, installed as {@link PipelineNames#CODEC}: Netty's HTTP/2 connection handler, extended to
 * serve every stream itself (no child channel per stream) with the same proxy logic HTTP/1 uses,
 * and to watch idleness itself, so that no other handler sits in the path of each frame.
 */
record Http2DownstreamProtocol(HttpProxy proxy) implements DownstreamProtocol {

    private static final ProtocolDetector DETECTOR = new Http2Detector();

    @Override
    public ProtocolDetector detector() {
        return DETECTOR;
    }

    @Override
    public void configure(ChannelPipeline pipeline) {
        pipeline.addLast(PipelineNames.CODEC, proxy.newHttp2ConnectionHandler(false));
    }
}
