package io.tollgate.server.upstream.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpScheme;
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
import io.tollgate.server.transport.Http2Multiplexer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stream of an upstream HTTP/2 connection, serving one exchange, without a channel of its own:
 * the request's {@code HttpObject}s go out as HEADERS and DATA frames (trailers as a last HEADERS)
 * written straight to the connection's encoder, and the stream's frames come back as the
 * {@code HttpObject}s the exchange proxies. A stream is used once: released before both sides
 * ended, it is reset with CANCEL.
 *
 * <p>Flow control holds end to end. The stream reports itself unwritable while the host's window
 * (or the connection's socket) is full, which pauses reading the request from downstream; response
 * bytes are credited back to the host (WINDOW_UPDATE) only while the exchange reads, so a slow
 * downstream slows the host down instead of filling the gateway's memory. A reset from the host, or
 * the connection closing, ends the exchange as {@link UpstreamListener#onUpstreamClosed()}; a
 * stream the host refused unprocessed (RST_STREAM REFUSED_STREAM, or above a GOAWAY's last stream
 * id) as {@link UpstreamListener#onUpstreamRefused()}; one it cancelled (RST_STREAM CANCEL) as
 * {@link UpstreamListener#onUpstreamCancelled()}.
 */
final class Http2UpstreamStream extends Http2Multiplexer.Stream implements UpstreamConnection {

    private static final Logger log = LoggerFactory.getLogger(Http2UpstreamStream.class);

    private final Http2UpstreamConnection connection;
    /** The codec's stream, once the request's HEADERS went out. */
    private Http2Stream stream;
    private UpstreamListener listener;
    private boolean requestEnded;
    private boolean responseStarted;
    private boolean responseEnded;
    private boolean refused;
    private boolean cancelled;
    /** The connection no longer counts the stream: it closed, or its request could not be sent. */
    private boolean ended;

    Http2UpstreamStream(Http2UpstreamConnection connection) {
        super(connection);
        this.connection = connection;
    }

    @Override
    public void bind(UpstreamListener listener) {
        this.listener = listener;
    }

    @Override
    public void write(HttpObject msg) {
        if (requestEnded || ended) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest) {
            writeHead((HttpRequest) msg);
            return;
        }
        if (msg instanceof HttpContent && stream != null) {
            HttpContent content = (HttpContent) msg;
            writeBody(content.content(), msg instanceof LastHttpContent ? ((LastHttpContent) msg).trailingHeaders() : null);
            return;
        }
        ReferenceCountUtil.release(msg);
    }

    /** The exchange is done with the stream: a stream still open either way is reset. */
    void release() {
        listener = null;
        if (ended) {
            return;
        }
        if (stream == null) {
            ended = true;
            connection.streamEnded();
            return;
        }
        if (!requestEnded || !responseEnded) {
            connection.writeReset(stream, Http2Error.CANCEL);
        }
    }

    /** A HEADERS frame from the host: the response head (or an interim one), or its trailers. */
    void headers(Http2Headers headers, boolean endStream) {
        if (endStream) {
            responseEnded = true;
        }
        HttpObject msg;
        try {
            msg = toHttpObject(headers, endStream);
        } catch (Http2Exception e) {
            HttpResponse malformed = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_GATEWAY);
            malformed.setDecoderResult(DecoderResult.failure(e));
            msg = malformed;
        }
        UpstreamListener current = listener;
        if (current == null) {
            ReferenceCountUtil.release(msg);
            return;
        }
        current.onResponse(msg);
    }

    /**
     * A DATA frame from the host; ownership of {@code content} passes here.
     *
     * @param flowControlledBytes what the frame took from the host's windows (padding included)
     */
    void data(ByteBuf content, int flowControlledBytes, boolean last) {
        if (last) {
            responseEnded = true;
        }
        UpstreamListener current = listener;
        if (current == null) {
            content.release();
            received(flowControlledBytes);
            credit();
            return;
        }
        current.onResponse(last ? new DefaultLastHttpContent(content) : new DefaultHttpContent(content));
        received(flowControlledBytes);
    }

    /** A RST_STREAM from the host; the stream's close follows. */
    void resetByHost(long errorCode) {
        log.debug("{}: stream {} reset by the host with {}", connection.pool().host(), stream.id(), errorCode);
        refused = errorCode == Http2Error.REFUSED_STREAM.code();
        cancelled = errorCode == Http2Error.CANCEL.code();
    }

    /** The connection's read batch ended: the moment for the exchange to flush downstream. */
    @Override
    protected void readComplete() {
        UpstreamListener current = listener;
        if (current != null) {
            current.onResponseBatchComplete();
        }
    }

    /** The flow controller says the stream's writability may have changed. */
    @Override
    protected void writabilityChanged() {
        boolean now = !ended && connection.isWritable(stream);
        if (!writable(now)) {
            return;
        }
        UpstreamListener current = listener;
        if (current != null) {
            current.onUpstreamWritabilityChanged(now);
        }
    }

    /**
     * The stream closed (both sides ended, a reset either way, or the connection closed): an
     * exchange still bound hears of it, as refused when it was above the last stream id of a
     * GOAWAY from the host or the host reset it with REFUSED_STREAM, as cancelled when the host
     * reset it with CANCEL.
     */
    @Override
    protected void closed() {
        if (ended) {
            return;
        }
        ended = true;
        connection.streamEnded();
        UpstreamListener current = listener;
        listener = null;
        if (current == null) {
            return;
        }
        if (refused || connection.refusedByGoAway(stream.id())) {
            current.onUpstreamRefused();
        } else if (cancelled) {
            current.onUpstreamCancelled();
        } else {
            current.onUpstreamClosed();
        }
    }

    private void writeHead(HttpRequest request) {
        boolean full = request instanceof FullHttpRequest;
        ByteBuf content = full ? ((FullHttpRequest) request).content() : Unpooled.EMPTY_BUFFER;
        HttpHeaders trailers = full ? ((FullHttpRequest) request).trailingHeaders() : null;
        boolean headersEnd = full && !content.isReadable() && trailers.isEmpty();
        Http2Headers headers;
        try {
            request.headers().set(HttpConversionUtil.ExtensionHeaderNames.SCHEME.text(), HttpScheme.HTTP.name());
            headers = HttpConversionUtil.toHttp2Headers(request, true);
        } catch (RuntimeException e) {
            log.debug("{}: request cannot be sent as HTTP/2", connection.pool().host(), e);
            ReferenceCountUtil.release(request);
            failSoon(false);
            return;
        }
        stream = connection.writeFirstHeaders(this, headers, headersEnd);
        if (stream == null) {
            ReferenceCountUtil.release(request);
            failSoon(true);
            return;
        }
        writable(connection.isWritable(stream));
        if (headersEnd) {
            requestEnded = true;
            content.release();
            return;
        }
        if (full) {
            writeBody(content, trailers);
        }
    }

    /**
     * Writes a body part (ownership of {@code content} passes); {@code trailers} is non-null for
     * the last part, which ends the stream (with a trailing HEADERS frame when there are trailers).
     */
    private void writeBody(ByteBuf content, HttpHeaders trailers) {
        boolean last = trailers != null;
        boolean withTrailers = last && !trailers.isEmpty();
        boolean dataEnds = last && !withTrailers;
        requestEnded = last;
        if (content.isReadable() || dataEnds) {
            connection.writeData(stream, content, dataEnds, false);
        } else {
            content.release();
        }
        if (withTrailers) {
            connection.writeHeaders(stream, HttpConversionUtil.toHttp2Headers(trailers, true), true, false);
        }
    }

    private HttpObject toHttpObject(Http2Headers headers, boolean endStream) throws Http2Exception {
        int id = stream.id();
        if (responseStarted) {
            LastHttpContent trailers = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
            HttpConversionUtil.addHttp2ToHttpHeaders(id, headers, trailers.trailingHeaders(), HttpVersion.HTTP_1_1,
                    true, false);
            return trailers;
        }
        if (endStream) {
            responseStarted = true;
            FullHttpResponse full = HttpConversionUtil.toFullHttpResponse(id, headers, Unpooled.EMPTY_BUFFER, true);
            if (!HttpUtil.isContentLengthSet(full) && mayHaveContentLength(full.status().code())) {
                HttpUtil.setContentLength(full, 0);
            }
            return full;
        }
        HttpResponse response = HttpConversionUtil.toHttpResponse(id, headers, true);
        if (response.status().codeClass() != HttpStatusClass.INFORMATIONAL) {
            responseStarted = true;
            if (!HttpUtil.isContentLengthSet(response)) {
                response.headers().add(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            }
        }
        return response;
    }

    /**
     * Whether a response with {@code status} may say its length: a bodiless answer over HTTP/1.1
     * needs {@code content-length: 0}, or the client waits for the connection to close.
     */
    private static boolean mayHaveContentLength(int status) {
        return status >= 200 && status != 204 && status != 304;
    }

    /**
     * The request could not be sent: the stream ends now, and the exchange hears of it on the next
     * pass of the event loop rather than in the middle of its own write.
     */
    private void failSoon(boolean refusedUnsent) {
        requestEnded = true;
        ended = true;
        connection.streamEnded();
        connection.eventLoop().execute(() -> {
            UpstreamListener current = listener;
            listener = null;
            if (current == null) {
                return;
            }
            if (refusedUnsent) {
                current.onUpstreamRefused();
            } else {
                current.onUpstreamClosed();
            }
        });
    }

    /** Returns bytes to the host's windows; the codec ignores a closed stream. */
    @Override
    protected void returnBytes(int bytes) {
        connection.consumeBytes(stream, bytes);
    }
}
