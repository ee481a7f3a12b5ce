package io.tollgate.server.upstream.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Settings;
import io.tollgate.server.transport.Http2StreamFrameListener;

/**
 * Hands an upstream connection, besides its streams' HEADERS and DATA, the RST_STREAM frames of its
 * streams, and the SETTINGS and GOAWAY frames of the connection itself.
 */
final class Http2UpstreamFrameListener extends Http2StreamFrameListener {

    private final Http2UpstreamConnection connection;

    Http2UpstreamFrameListener(Http2UpstreamConnection connection) {
        super(connection);
        this.connection = connection;
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
        connection.resetRead(streamId, errorCode);
    }

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
        connection.settingsRead(settings);
    }

    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
        connection.goAwayRead(lastStreamId, errorCode);
    }
}
