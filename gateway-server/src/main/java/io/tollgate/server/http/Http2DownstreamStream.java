package io.tollgate.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.HttpConversionUtil;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.protocols.http2.Http2ResponseHeads;
import io.tollgate.server.transport.Http2Multiplexer;
import java.util.concurrent.TimeUnit;

/**
 * One stream of a downstream HTTP/2 connection, without a channel of its own: it turns the
 * stream's frames into the {@code HttpObject}s its {@link HttpDownstream} proxies, and the
 * response back into HEADERS and DATA frames written straight to the connection's encoder.
 *
 * <p>Flow control holds end to end. Request bytes are returned to the client's windows
 * (WINDOW_UPDATE) only while the proxy reads, so a paused stream holds at most one stream window. The response
 * side reports the stream unwritable while the client's window (or the connection's socket) is
 * full, which pauses reading from the upstream; a stream that stays unwritable for the hold
 * timeout is reset, and the timer exists only while it is unwritable.
 */
final class Http2DownstreamStream extends Http2Multiplexer.Stream implements DownstreamCarrier, Runnable {

    private final Http2DownstreamConnection connection;
    private final Http2Stream stream;
    private final HttpDownstream downstream;
    private boolean requestStarted;
    /** No more frames may be written: the response ended, the stream was reset or closed. */
    private boolean outputDone;
    private boolean closed;
    private ScheduledFuture<?> holdTimer;

    Http2DownstreamStream(Http2DownstreamConnection connection, Http2Stream stream) {
        super(connection);
        this.connection = connection;
        this.stream = stream;
        this.downstream = new HttpDownstream(connection.proxy(), this);
    }

    /** A HEADERS frame from the client: the request head, or its trailers. */
    void headers(Http2Headers headers, boolean endStream) {
        int id = stream.id();
        try {
            if (requestStarted) {
                LastHttpContent trailers = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
                HttpConversionUtil.addHttp2ToHttpHeaders(id, headers, trailers.trailingHeaders(),
                        HttpVersion.HTTP_1_1, true, true);
                downstream.read(trailers);
                return;
            }
            requestStarted = true;
            // Not validated again: the frame codec refuses bad names and values (a stream error),
            // and HttpDownstream checks every field of every request once more. A Host header
            // repeating :authority is dropped here, and one contradicting it is a stream error.
            HttpRequest request = toHttpRequest(headers);
            if (request == null) {
                connection.proxy().listenerMetrics().error("h2_malformed_request");
                reset(Http2Error.PROTOCOL_ERROR);
                return;
            }
            if (endStream) {
                // a request never gains trailers once complete: no map of its own for them
                request = new DefaultFullHttpRequest(request.protocolVersion(), request.method(), request.uri(),
                        Unpooled.EMPTY_BUFFER, request.headers(), EmptyHttpHeaders.INSTANCE);
            } else if (headers.contains(HttpHeaderNames.TRAILER)) {
                announcesTrailers(request, headers);
            } else if (!HttpUtil.isContentLengthSet(request)) {
                request.headers().add(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            }
            downstream.read(request);
        } catch (Http2Exception e) {
            reset(Http2Error.PROTOCOL_ERROR);
        }
    }

    /**
     * A request that announces trailers ({@code trailer}, RFC 9110 section 6.6.2) is forwarded
     * chunked, with the announcement, even when it gave its length: an HTTP/1.1 message framed by
     * its length has no trailer section to carry them in. (Netty's conversion drops the field.)
     */
    private static void announcesTrailers(HttpRequest request, Http2Headers headers) {
        HttpHeaders forwarded = request.headers();
        forwarded.remove(HttpHeaderNames.CONTENT_LENGTH);
        forwarded.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        forwarded.set(HttpHeaderNames.TRAILER, headers.getAll(HttpHeaderNames.TRAILER));
    }

    /**
     * The request head as HTTP/1 reads it, or null when a method or path that no request line can
     * carry (a space, a control character) makes it malformed (RFC 9113 section 8.3.1, a stream
     * error PROTOCOL_ERROR): the conversion refuses them with an {@link IllegalArgumentException}.
     * The connection already refused heads without the pseudo-headers a request needs.
     *
     * @throws Http2Exception when the conversion finds another stream error (a Host contradicting
     *     {@code :authority})
     */
    private HttpRequest toHttpRequest(Http2Headers headers) throws Http2Exception {
        try {
            return HttpConversionUtil.toHttpRequest(stream.id(), headers, false);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * A DATA frame from the client; ownership of {@code content} passes here.
     *
     * @param flowControlledBytes what the frame took from the client's windows (padding included)
     */
    void data(ByteBuf content, int flowControlledBytes, boolean endStream) {
        downstream.read(endStream ? new DefaultLastHttpContent(content) : new DefaultHttpContent(content));
        received(flowControlledBytes);
    }

    /** The connection's read batch ended: what the stream sent upstream in it is flushed. */
    @Override
    protected void readComplete() {
        downstream.readComplete();
    }

    /**
     * The flow controller says the stream's writability may have changed. It also says so for
     * every stream that closes (a closed stream is not writable); that one is ignored, or each
     * request would start and cancel a hold timer.
     */
    @Override
    protected void writabilityChanged() {
        if (stream.state() == Http2Stream.State.CLOSED) {
            return;
        }
        boolean now = writableNow();
        if (!writable(now)) {
            return;
        }
        if (now) {
            cancelHoldTimer();
        } else if (holdTimer == null) {
            holdTimer = eventLoop().schedule(this, connection.holdNanos(), TimeUnit.NANOSECONDS);
        }
        downstream.writabilityChanged(now);
    }

    /** The stream closed (both sides ended, or a reset either way): the exchange in progress ends. */
    @Override
    protected void closed() {
        if (closed) {
            return;
        }
        closed = true;
        outputDone = true;
        cancelHoldTimer();
        downstream.closed();
    }

    /** Whether the stream has nothing in progress. */
    boolean isIdle() {
        return downstream.isIdle();
    }

    /** The hold timeout passed: resets the stream unless it became writable just now. */
    @Override
    public void run() {
        holdTimer = null;
        if (!writableNow()) {
            reset(Http2Error.CANCEL);
        }
    }

    @Override
    public EventLoop eventLoop() {
        return connection.eventLoop();
    }

    @Override
    public ByteBufAllocator alloc() {
        return connection.alloc();
    }

    @Override
    public PeerAddress peer() {
        return connection.peer();
    }

    @Override
    public boolean isHttp2Stream() {
        return true;
    }

    @Override
    public ChannelFuture write(HttpObject msg, boolean track) {
        if (outputDone) {
            ReferenceCountUtil.release(msg);
            return track ? connection.closedFuture() : null;
        }
        if (msg instanceof HttpResponse) {
            return writeHead((HttpResponse) msg, track);
        }
        if (msg instanceof HttpContent) {
            HttpContent content = (HttpContent) msg;
            boolean last = msg instanceof LastHttpContent;
            return writeBody(content.content(), last ? ((LastHttpContent) msg).trailingHeaders() : null, track);
        }
        ReferenceCountUtil.release(msg);
        return null;
    }

    private ChannelFuture writeHead(HttpResponse response, boolean track) {
        // Not validated again: every response head is built in a validating HTTP/1 header map.
        Http2Headers headers = Http2ResponseHeads.head(response);
        if (response.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
            ReferenceCountUtil.release(response);
            return connection.writeHeaders(stream, headers, false, track);
        }
        if (!(response instanceof FullHttpResponse)) {
            return connection.writeHeaders(stream, headers, false, track);
        }
        FullHttpResponse full = (FullHttpResponse) response;
        ByteBuf content = full.content();
        if (!content.isReadable() && full.trailingHeaders().isEmpty()) {
            content.release();
            outputDone = true;
            return connection.writeHeaders(stream, headers, true, track);
        }
        connection.writeHeaders(stream, headers, false, false);
        return writeBody(content, full.trailingHeaders(), track);
    }

    /**
     * Writes a body part; {@code trailers} is non-null for the last part, which ends the stream
     * (with a trailing HEADERS frame when there are trailers).
     */
    private ChannelFuture writeBody(ByteBuf content, HttpHeaders trailers, boolean track) {
        boolean last = trailers != null;
        boolean withTrailers = last && !trailers.isEmpty();
        boolean dataEnds = last && !withTrailers;
        outputDone = last;
        ChannelFuture written = null;
        if (content.isReadable() || dataEnds) {
            written = connection.writeData(stream, content, dataEnds, track && !withTrailers);
        } else {
            content.release();
        }
        if (withTrailers) {
            written = connection.writeHeaders(stream, Http2ResponseHeads.trailers(trailers), true,
                    track);
        }
        return written;
    }

    @Override
    public void endAfter(ChannelFuture lastWrite) {
        if (lastWrite == null) {
            reset(Http2Error.NO_ERROR);
            return;
        }
        lastWrite.addListener(f -> reset(Http2Error.NO_ERROR));
    }

    @Override
    public void reset(Http2Error error) {
        if (closed || stream.state() == Http2Stream.State.CLOSED) {
            return;
        }
        outputDone = true;
        connection.writeReset(stream, error);
    }

    @Override
    public void firstRequestSeen() {
        // An HTTP/2 stream has no protocol upgrade to give up.
    }

    /** Returns bytes to the client's windows, unless the stream is closed. */
    @Override
    protected void returnBytes(int bytes) {
        if (!closed) {
            connection.consume(stream, bytes);
        }
    }

    private boolean writableNow() {
        return connection.isWritable(stream);
    }

    private void cancelHoldTimer() {
        if (holdTimer != null) {
            holdTimer.cancel(false);
            holdTimer = null;
        }
    }
}
