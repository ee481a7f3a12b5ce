package io.tollgate.server.listener;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.util.AsciiString;
import io.tollgate.server.transport.PipelineNames;
import java.util.Collection;

/**
 * Upgrades an HTTP/1.1 connection to h2c when a request asks for it ({@code Upgrade: h2c} with
 * {@code HTTP2-Settings}). Netty's upgrade codec installs the HTTP/2 connection handler; this one
 * also removes the HTTP/1 idle and proxy handlers, since the HTTP/2 handler does both jobs. The
 * upgrading request itself becomes stream 1 and is proxied like any other.
 */
final class H2cUpgradeCodecs implements HttpServerUpgradeHandler.UpgradeCodecFactory {

    private final Http2DownstreamProtocol http2;

    H2cUpgradeCodecs(Http2DownstreamProtocol http2) {
        this.http2 = http2;
    }

    @Override
    public HttpServerUpgradeHandler.UpgradeCodec newUpgradeCodec(CharSequence protocol) {
        if (!AsciiString.contentEquals(Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME, protocol)) {
            return null;
        }
        Http2ServerUpgradeCodec netty = new Http2ServerUpgradeCodec(PipelineNames.CODEC,
                http2.proxy().newHttp2ConnectionHandler(true));
        return new HttpServerUpgradeHandler.UpgradeCodec() {
            @Override
            public Collection<CharSequence> requiredUpgradeHeaders() {
                return netty.requiredUpgradeHeaders();
            }

            @Override
            public boolean prepareUpgradeResponse(ChannelHandlerContext ctx, FullHttpRequest request,
                    HttpHeaders headers) {
                return netty.prepareUpgradeResponse(ctx, request, headers);
            }

            @Override
            public void upgradeTo(ChannelHandlerContext ctx, FullHttpRequest request) {
                netty.upgradeTo(ctx, request);
                ctx.pipeline().remove(PipelineNames.IDLE);
                ctx.pipeline().remove(PipelineNames.PROXY);
            }
        };
    }
}
