package io.tollgate.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;

/**
 * Hands the frames a downstream HTTP/2 connection's decoder accepted to the connection's streams:
 * HEADERS and DATA only. Netty answers the rest itself (SETTINGS and PING acknowledgements, window
 * updates, resets and GOAWAY, which close streams through the connection's listener).
 */
final class Http2DownstreamFrameListener extends Http2FrameAdapter {

    private final Http2DownstreamConnection connection;

    Http2DownstreamFrameListener(Http2DownstreamConnection connection) {
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
}
