package io.tollgate.server.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;

/**
 * Hands the HEADERS and DATA frames a connection's decoder accepted to its {@link Http2Multiplexer}.
 * Netty answers the rest itself (SETTINGS and PING acknowledgements, window updates, resets and
 * GOAWAY, which close streams through the connection's listener); a side that wants to see more
 * frames extends this listener.
 */
public class Http2StreamFrameListener extends Http2FrameAdapter {

    private final Http2Multiplexer<?> connection;

    public Http2StreamFrameListener(Http2Multiplexer<?> connection) {
        this.connection = connection;
    }

    @Override
    public final void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
            boolean endOfStream) {
        connection.headersRead(streamId, headers, endOfStream);
    }

    /** HEADERS with a priority: the priority is ignored (RFC 9113 deprecates it). */
    @Override
    public final void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
            int streamDependency, short weight, boolean exclusive, int padding, boolean endOfStream) {
        connection.headersRead(streamId, headers, endOfStream);
    }

    @Override
    public final int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
            boolean endOfStream) {
        return connection.dataRead(streamId, data, padding, endOfStream);
    }
}
