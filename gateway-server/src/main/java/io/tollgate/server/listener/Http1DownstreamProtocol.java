package io.tollgate.server.listener;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.timeout.IdleStateHandler;
import io.tollgate.core.config.HttpOptions;
import io.tollgate.core.protocol.ProtocolDetector;
import io.tollgate.protocols.http1.Http1Decoders;
import io.tollgate.protocols.http1.Http1Detector;
import io.tollgate.server.http.HttpProxy;
import io.tollgate.server.transport.PipelineNames;
import java.util.concurrent.TimeUnit;

/**
 * HTTP/1.x on a listener: Netty's server codec in front of the HTTP/1 proxy handler; and, when the
 * listener also serves h2c, the upgrade handler that turns the connection into HTTP/2 on request.
 *
 * @param upgrades the h2c upgrade, or null when the listener does not serve h2c
 */
record Http1DownstreamProtocol(HttpProxy proxy, H2cUpgradeCodecs upgrades) implements DownstreamProtocol {

    private static final ProtocolDetector DETECTOR = new Http1Detector();

    /** The most body an upgrading request may carry: it is buffered whole before the switch. */
    private static final int MAX_UPGRADE_BODY_BYTES = 64 * 1024;

    @Override
    public ProtocolDetector detector() {
        return DETECTOR;
    }

    @Override
    public void configure(ChannelPipeline pipeline) {
        HttpOptions http = proxy.listenerConfig().http();
        HttpServerCodec codec = Http1Decoders.serverCodec(http.maxInitialLineBytes(), http.maxHeaderBytes());
        pipeline.addLast(PipelineNames.HEAD_GUARD, Http1Decoders.headGuard(http.maxInitialLineBytes(), http.maxHeaderBytes()))
                .addLast(PipelineNames.CODEC, codec);
        if (upgrades != null) {
            pipeline.addLast(PipelineNames.UPGRADE, new HttpServerUpgradeHandler(ctx -> {
                ctx.pipeline().remove(PipelineNames.HEAD_GUARD);
                codec.upgradeFrom(ctx);
            }, upgrades, MAX_UPGRADE_BODY_BYTES) {
                /**
                 * A request whose body could pass the buffering cap (over it, or chunked) is
                 * served as HTTP/1.1 instead of upgraded: its client (the JDK's, whose first
                 * request offers the upgrade whatever its body) gets its answer, not a 413.
                 */
                @Override
                protected boolean shouldHandleUpgradeRequest(HttpRequest request) {
                    return super.shouldHandleUpgradeRequest(request) && !HttpUtil.isTransferEncodingChunked(request)
                            && HttpUtil.getContentLength(request, 0L) <= MAX_UPGRADE_BODY_BYTES;
                }
            });
        }
        pipeline.addLast(PipelineNames.IDLE, new IdleStateHandler(http.idleTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS))
                .addLast(PipelineNames.PROXY, proxy.newHandler());
    }
}
