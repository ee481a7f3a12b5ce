package io.tollgate.server.http;

import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.http1.HopByHopHeaders;
import io.tollgate.protocols.http2.Grpc;
import io.tollgate.protocols.http2.GrpcStatus;
import io.tollgate.protocols.http2.Http2ExtensionHeaders;
import io.tollgate.router.host.Host;
import io.tollgate.router.retry.RetryPolicy;
import io.tollgate.router.route.Route;
import io.tollgate.server.exchange.ExchangeTarget;
import io.tollgate.server.filter.FilterRun;
import io.tollgate.server.upstream.http.UpstreamConnection;
import io.tollgate.server.upstream.http.UpstreamPools;
import java.util.ArrayDeque;

/**
 * One request and its response crossing the proxy, each side HTTP/1.1 or an HTTP/2 stream, a
 * {@link PooledExchange}: its attempts are {@link HttpAttempt}s; it streams the request body
 * up and the response down, enforces the route timeout ({@code grpc-timeout} for gRPC), and turns
 * upstream failures into 502/503/504 (gRPC: a status) when nothing was sent downstream yet.
 *
 * <p>Retries follow the route's retry policy and the cluster's retry budget. A request is only
 * retried while nothing of its response went downstream and while its whole body is still held
 * by a {@link ReplayableRequest}; a response whose status asks for a retry is held back (and
 * dropped) when the retry is granted, and forwarded when it is not, so the last attempt's answer
 * is what the client sees. Every attempt's outcome goes to outlier detection.
 *
 * <p>Runs entirely on the downstream connection's event loop, which also owns the upstream
 * connections, so no state here is shared between threads.
 */
final class HttpExchange extends PooledExchange {

    private final HttpRequest request;
    private final Route route;
    private final HttpVersion downstreamVersion;
    private final long maxRequestBody;
    private final long timeoutNanos;
    /** The request's stream filters, null when it has none. */
    private final FilterRun filters;
    private final ArrayDeque<HttpContent> waitingBody = new ArrayDeque<>();
    /** Held exactly when {@link #retryPolicy} is. */
    private final ReplayableRequest replay;

    private ChannelFuture lastWrite;
    private int responseStatus;
    /** The original request head went to an attempt, which took ownership of it. */
    private boolean requestSent;
    private boolean requestComplete;
    private boolean responseStarted;
    private boolean skippingInformational;
    private boolean closeDownstreamAfter;
    private boolean upstreamReusable;
    private boolean upstreamNeedsFlush;
    /**
     * Whether the first attempt is starting inside the downstream's read batch, whose end flushes
     * what went upstream: a connection at hand at once then sends the head together with the
     * body read in the same batch, one write instead of two.
     */
    private boolean startingInReadBatch;
    private long requestBytes;

    HttpExchange(HttpDownstream downstream, HttpRouteRequest request, ExchangeTarget target, UpstreamPools pools,
            long maxRequestBody) {
        super(downstream, request, target, retriable(target.route().retryPolicy(), request.request(), downstream.isGrpc()),
                pools);
        this.request = request.request();
        this.route = target.route();
        this.downstreamVersion = request.version();
        this.maxRequestBody = maxRequestBody;
        this.requestComplete = request.complete();
        this.closeDownstreamAfter = !request.keepAlive();
        this.timeoutNanos = request.timeoutNanos(downstream.isGrpc());
        this.filters = request.filters();
        this.replay = retries == null ? null : new ReplayableRequest(this.request, route.perRequestBufferLimitBytes());
    }

    /** Whether the policy retries requests of this method at all. */
    private static boolean retriable(RetryPolicy policy, HttpRequest request, boolean grpc) {
        return policy != null && policy.allowsMethod(request.method().name(), grpc);
    }

    /**
     * Sends the first attempt to {@code host}; MUST be called while the downstream reads (the end
     * of its read batch, or of its pipelined requests, calls {@link #flushUpstream}).
     */
    @Override
    public void start(Host host) {
        startTimeout(timeoutNanos);
        startingInReadBatch = true;
        try {
            startAttempt(host);
        } finally {
            startingInReadBatch = false;
        }
    }

    /**
     * Reading the client pauses only when the connection is not at hand at once: pausing and
     * resuming costs two epoll_ctl calls per request.
     */
    @Override
    protected void awaitingConnection() {
        downstream.pause(HttpDownstream.PAUSE_CONNECTING);
    }

    @Override
    protected void overflowed() {
        unavailable("upstream_overflow");
    }

    @Override
    protected void unavailable(String reason) {
        fail(HttpResponseStatus.SERVICE_UNAVAILABLE, reason);
    }

    @Override
    protected boolean responseStarted() {
        return responseStarted;
    }

    /** Only while nothing of the response went downstream and the whole body is still held. */
    @Override
    protected boolean retryPossible() {
        return !responseStarted && replay.intact();
    }

    /** Reading the request pauses while the retry waits. */
    @Override
    protected void backingOff() {
        downstream.pause(HttpDownstream.PAUSE_CONNECTING);
    }

    /** The current attempt has its connection: the request goes up, whole so far. */
    @Override
    public void attemptConnected(HttpAttempt connected) {
        UpstreamConnection connection = connected.connection();
        if (!requestSent) {
            requestSent = true;
            connection.write(request);
            HttpContent content;
            while ((content = waitingBody.pollFirst()) != null) {
                connection.write(content);
            }
        } else {
            releaseWaitingBody();
            replay.writeTo(connection);
        }
        if (startingInReadBatch) {
            upstreamNeedsFlush = true;
        } else {
            connection.flush();
        }
        downstream.resume(HttpDownstream.PAUSE_CONNECTING);
        if (!connection.isWritable()) {
            downstream.pause(HttpDownstream.PAUSE_UPSTREAM_FULL);
        }
    }

    /** A part of the request body from downstream; ownership passes here. */
    @Override
    public void requestContent(HttpContent content) {
        if (done()) {
            ReferenceCountUtil.release(content);
            return;
        }
        if (content.decoderResult().isFailure()) {
            ReferenceCountUtil.release(content);
            record.flag(ResponseFlag.DOWNSTREAM_PROTOCOL_ERROR);
            refuseBody("bad_request_body", HttpResponseStatus.BAD_REQUEST, Http2Error.PROTOCOL_ERROR);
            return;
        }
        if (filters != null) {
            boolean last = content instanceof LastHttpContent;
            filters.requestBody(content.content(), last);
            context.shadowBody(content.content(), last);
            if (last && !((LastHttpContent) content).trailingHeaders().isEmpty()) {
                filters.requestTrailers(new HttpFilterHeaders(((LastHttpContent) content).trailingHeaders()));
            }
        }
        int bytes = content.content().readableBytes();
        requestBytes += bytes;
        record.received(bytes);
        if (content instanceof LastHttpContent) {
            requestComplete = true;
        }
        if (requestBytes > maxRequestBody) {
            ReferenceCountUtil.release(content);
            record.flag(ResponseFlag.REQUEST_TOO_LARGE);
            refuseBody("body_too_large", HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, Http2Error.CANCEL);
            return;
        }
        if (replay != null) {
            replay.add(content);
            if (requestSent && !replay.intact() && connection() == null) {
                ReferenceCountUtil.release(content);
                record.flag(ResponseFlag.UPSTREAM_RETRY_LIMIT_EXCEEDED);
                fail(HttpResponseStatus.INSUFFICIENT_STORAGE, "retry_buffer_overflow");
                return;
            }
        }
        UpstreamConnection connection = connection();
        if (connection == null) {
            waitingBody.addLast(content);
            return;
        }
        connection.write(content);
        upstreamNeedsFlush = true;
        if (!connection.isWritable()) {
            downstream.pause(HttpDownstream.PAUSE_UPSTREAM_FULL);
        }
    }

    /**
     * Refuses a request body that cannot be forwarded (malformed framing, over the limit): the
     * attempt ends unusable, so that the upstream never sees the request complete, and the client
     * is answered {@code status} when nothing of the response went downstream yet; otherwise
     * there is no second answer to give, and the response is aborted (an HTTP/2 stream reset
     * with {@code resetError}). An HTTP/1 connection closes either way: its framing cannot be
     * trusted or its body is not wanted.
     */
    private void refuseBody(String reason, HttpResponseStatus status, Http2Error resetError) {
        downstream.requestBodyRejected(reason, !responseStarted);
        closeDownstreamAfter = true;
        if (responseStarted) {
            abort(resetError);
        } else {
            fail(status, reason);
        }
    }

    /** Flushes what the current downstream read batch wrote upstream. */
    @Override
    public void flushUpstream() {
        UpstreamConnection connection = connection();
        if (upstreamNeedsFlush && connection != null) {
            upstreamNeedsFlush = false;
            connection.flush();
        }
    }

    @Override
    public void upstreamWritabilityChanged(boolean writable) {
        if (writable) {
            downstream.resume(HttpDownstream.PAUSE_UPSTREAM_FULL);
        } else {
            downstream.pause(HttpDownstream.PAUSE_UPSTREAM_FULL);
        }
    }

    /** A response part from the current attempt; ownership passes here. */
    @Override
    public void attemptResponse(HttpAttempt answering, HttpObject msg) {
        if (msg.decoderResult().isFailure()) {
            ReferenceCountUtil.release(msg);
            upstreamFailed(answering, "upstream_bad_response", false);
            return;
        }
        if (msg instanceof HttpResponse) {
            HttpResponse response = (HttpResponse) msg;
            int code = response.status().code();
            if (code >= 100 && code < 200) {
                skippingInformational = true;
                ReferenceCountUtil.release(msg);
                return;
            }
            skippingInformational = false;
            target.outcomes().responded(answering.host(), code);
            record.attemptAnswered(code);
            boolean retriable = asksForRetry(response);
            if (retriable && grantRetry()) {
                ReferenceCountUtil.release(msg);
                record.cluster().requestCompleted(code, answering.elapsedNanos());
                endAttempt(false);
                scheduleRetry();
                return;
            }
            if (retries != null && retries.count() > 0 && !retriable) {
                record.cluster().retrySuccess();
            }
            responseStarted = true;
            responseStatus = code;
            prepareResponse(response);
            record.responseHeaders(response.headers());
        } else if (skippingInformational) {
            ReferenceCountUtil.release(msg);
            return;
        }
        boolean last = msg instanceof LastHttpContent;
        if (msg instanceof HttpContent) {
            HttpContent content = (HttpContent) msg;
            if (filters != null) {
                filters.responseBody(content.content(), last);
                if (last && !((LastHttpContent) content).trailingHeaders().isEmpty()) {
                    filters.responseTrailers(new HttpFilterHeaders(((LastHttpContent) content).trailingHeaders()));
                }
            }
            record.sent(content.content().readableBytes());
        }
        if (last) {
            record.trailers(((LastHttpContent) msg).trailingHeaders());
            lastWrite = downstream.write(msg, closeDownstreamAfter);
            finish();
            return;
        }
        downstream.write(msg, false);
        if (!downstream.isWritable()) {
            answering.connection().setReading(false);
        }
    }

    /**
     * Whether the retry policy asks to retry this answer: by its status, or for gRPC by the
     * {@code grpc-status} of a trailers-only answer (status in the headers).
     */
    private boolean asksForRetry(HttpResponse response) {
        if (retryPolicy == null) {
            return false;
        }
        if (retryPolicy.retriesStatus(response.status().code())) {
            return true;
        }
        Integer grpcStatus = response.headers().getInt(Grpc.STATUS);
        return grpcStatus != null && retryPolicy.retriesGrpcStatus(grpcStatus);
    }

    private void prepareResponse(HttpResponse response) {
        upstreamReusable = HttpUtil.isKeepAlive(response);
        HopByHopHeaders.strip(response.headers());
        Http2ExtensionHeaders.strip(response.headers());
        response.setProtocolVersion(HttpVersion.HTTP_1_1);
        if (filters != null) {
            filters.response(new HttpFilterResponse(response, false, false));
        }
        if (downstream.isHttp2Stream()) {
            return;
        }
        if (downstreamVersion == HttpVersion.HTTP_1_0 && HttpUtil.isTransferEncodingChunked(response)) {
            response.headers().remove(HttpHeaderNames.TRANSFER_ENCODING);
            closeDownstreamAfter = true;
        }
        if (downstream.lastResponse()) {
            closeDownstreamAfter = true;
        }
        HopByHopHeaders.setKeepAlive(response, downstreamVersion, !closeDownstreamAfter);
    }

    /** The current attempt's connection (or stream) closed before the exchange was done with it. */
    @Override
    public void attemptClosed(HttpAttempt closed) {
        upstreamFailed(closed, "upstream_reset", false);
    }

    /**
     * The host reset the current attempt's HTTP/2 stream with CANCEL: it gave up on the request.
     * Before any response this is a reset like any other; after, the client's stream is reset
     * with CANCEL too (a gRPC call included, which its client reports as CANCELLED), so that a
     * cancellation crosses the gateway as it would cross a direct connection.
     */
    @Override
    public void attemptCancelled(HttpAttempt cancelled) {
        upstreamFailed(cancelled, "upstream_reset", true);
    }

    /** Ends the exchange after a timeout: 504 when nothing went downstream yet, else a cancelled response. */
    @Override
    protected void timedOut(String reason) {
        if (responseStarted) {
            abort(Http2Error.CANCEL);
        } else {
            fail(HttpResponseStatus.GATEWAY_TIMEOUT, reason);
        }
    }

    private void upstreamFailed(HttpAttempt failed, String reason, boolean cancelledByHost) {
        if (retriedAfterReset(failed)) {
            return;
        }
        record.flag(reason.equals("upstream_reset")
                ? ResponseFlag.UPSTREAM_CONNECTION_TERMINATION : ResponseFlag.UPSTREAM_PROTOCOL_ERROR);
        if (responseStarted && cancelledByHost) {
            abort(Http2Error.CANCEL);
        } else if (responseStarted && downstream.isGrpc()) {
            endWithGrpcStatus(reason);
        } else if (responseStarted) {
            abort(Http2Error.INTERNAL_ERROR);
        } else {
            fail(HttpResponseStatus.BAD_GATEWAY, reason);
        }
    }

    /** The downstream connection went away: nothing more can be sent, the upstream is unusable. */
    @Override
    public void downstreamClosed() {
        if (done()) {
            return;
        }
        record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        cleanUp(false);
        record.finish(responseStatus);
    }

    /** Answers with a gateway error; only possible while no response byte went downstream. */
    private void fail(HttpResponseStatus status, String reason) {
        cleanUp(false);
        FullHttpResponse response = downstream.error(status, reason);
        if (closeDownstreamAfter && !downstream.isHttp2Stream()) {
            HopByHopHeaders.setKeepAlive(response, downstreamVersion, false);
        }
        record.sent(response.content().readableBytes());
        record.responseHeaders(response.headers());
        record.finish(response.status().code());
        downstream.answerFailure(this, response, reason, downstreamVersion, !closeDownstreamAfter && requestComplete);
    }

    /**
     * Gives up after part of the response went downstream: HTTP/1 closes the connection, the only
     * honest signal; HTTP/2 resets the stream with {@code error}.
     */
    private void abort(Http2Error error) {
        cleanUp(false);
        record.finish(responseStatus);
        downstream.abortResponse(this, error);
    }

    /**
     * The upstream failed in the middle of a gRPC response: trailers with UNAVAILABLE end the
     * call, so that the client learns why instead of seeing a bare reset.
     */
    private void endWithGrpcStatus(String reason) {
        cleanUp(false);
        LastHttpContent trailers = new DefaultLastHttpContent(downstream.alloc().buffer(0));
        trailers.trailingHeaders()
                .setInt(Grpc.STATUS, GrpcStatus.UNAVAILABLE.code())
                .set(Grpc.MESSAGE, reason);
        record.finish(responseStatus);
        downstream.exchangeDone(this, downstream.writeAndFlush(trailers));
    }

    private void finish() {
        markDone();
        downstream.flushResponse();
        cleanUp(upstreamReusable && requestComplete);
        record.cluster().requestCompleted(responseStatus, record.elapsedNanos());
        record.finish(responseStatus);
        downstream.exchangeDone(this, closeDownstreamAfter ? lastWrite : null);
    }

    private void releaseWaitingBody() {
        HttpContent content;
        while ((content = waitingBody.pollFirst()) != null) {
            ReferenceCountUtil.release(content);
        }
    }

    /** Marks the exchange ended and lets go of everything it holds. */
    private void cleanUp(boolean reuseUpstream) {
        markDone();
        releaseWaitingBody();
        if (replay != null) {
            replay.release();
        }
        if (!requestSent) {
            requestSent = true;
            ReferenceCountUtil.release(request);
        }
        endAttempt(reuseUpstream);
    }
}
