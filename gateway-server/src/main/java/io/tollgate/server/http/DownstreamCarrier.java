package io.tollgate.server.http;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http2.Http2Error;

/**
 * What carries the requests of one {@link HttpDownstream} and their responses: an HTTP/1
 * connection, or one stream of an HTTP/2 connection (which has no channel of its own). The proxy
 * logic is the same for both; only these primitives differ.
 */
interface DownstreamCarrier {

    EventLoop eventLoop();

    ByteBufAllocator alloc();

    /** The client's address, formatted once per connection. */
    PeerAddress peer();

    /** Whether this carrier is an HTTP/2 stream. */
    boolean isHttp2Stream();

    /**
     * Writes a response part without flushing; ownership of {@code msg} passes here.
     *
     * @param track whether the caller needs the write's future
     * @return the write's future when {@code track}, else null
     */
    ChannelFuture write(HttpObject msg, boolean track);

    /** Flushes the response parts written so far (HTTP/2: once per event-loop pass for the connection). */
    void flush();

    /** Whether the client takes response bytes now. */
    boolean isWritable();

    /** Starts or stops reading the request (HTTP/2: stops returning flow-control credit). */
    void setReading(boolean reading);

    /**
     * Ends the carrier once {@code lastWrite} is done (null: after what was written so far):
     * HTTP/1 closes the connection; an HTTP/2 stream still open is reset with NO_ERROR, which stops
     * an upload without failing the complete response (RFC 9113 section 8.1).
     */
    void endAfter(ChannelFuture lastWrite);

    /** Resets an HTTP/2 stream with {@code error} unless it already closed; HTTP/1 closes the connection. */
    void reset(Http2Error error);

    /** A request was answered before the protocol upgrade could happen: no upgrade any more (HTTP/1 only). */
    void firstRequestSeen();
}
