package io.tollgate.server.upstream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;

/**
 * Hands the frames an upstream HTTP/2 connection's decoder accepted to the connection: HEADERS,
 * DATA and RST_STREAM for its streams, SETTINGS and GOAWAY for the connection itself. Netty answers
 * the rest itself (SETTINGS and PING acknowledgements, window updates) and closes the streams a
 * reset or GOAWAY ends, which they hear through the connection's listener.
 */
final class Http2UpstreamFrameListener extends Http2FrameAdapter {

    private final Http2UpstreamConnection connection;

    Http2UpstreamFrameListener(Http2UpstreamConnection connection) {
        this.connection = connection;
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
            boolean endOfStream) {
        connection.headersRead(streamId, headers, endOfStream);
    }

    /** HEADERS with a priority: the priority is ignored (RFC 9113 deprecates it). */
    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
            short weight, boolean exclusive, int padding, boolean endOfStream) {
        connection.headersRead(streamId, headers, endOfStream);
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
        return connection.dataRead(streamId, data, padding, endOfStream);
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
