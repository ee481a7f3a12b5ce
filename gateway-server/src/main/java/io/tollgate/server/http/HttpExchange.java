package io.tollgate.server.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
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
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.http1.HopByHopHeaders;
import io.tollgate.protocols.http2.Grpc;
import io.tollgate.protocols.http2.GrpcStatus;
import io.tollgate.protocols.http2.Http2ExtensionHeaders;
import io.tollgate.router.outlier.UpstreamFailure;
import io.tollgate.router.outlier.UpstreamOutcomes;
import io.tollgate.router.route.Route;
import io.tollgate.server.upstream.UpstreamConnection;
import io.tollgate.server.upstream.UpstreamListener;
import io.tollgate.server.upstream.UpstreamPool;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One request and its response crossing the proxy, each side HTTP/1.1 or an HTTP/2 stream: it
 * waits for an upstream connection (or stream), streams the request body up and the response
 * down without buffering either (the body read while connecting excepted, which reading being
 * paused bounds), enforces the route timeout ({@code grpc-timeout} for gRPC), and turns upstream
 * failures into 502/503/504 (gRPC: a status) when nothing was sent downstream yet.
 *
 * <p>Runs entirely on the downstream connection's event loop, which also owns the upstream
 * connection, so no state here is shared between threads.
 */
final class HttpExchange implements UpstreamPool.Acquirer, UpstreamListener {

    private final HttpDownstreamHandler downstream;
    private final ChannelHandlerContext ctx;
    private final UpstreamPool pool;
    private final HttpRequest request;
    private final Route route;
    private final RequestRecord record;
    private final UpstreamOutcomes outcomes;
    private int responseStatus;
    private final boolean downstreamKeepAlive;
    private final HttpVersion downstreamVersion;
    private final long maxRequestBody;
    private final ArrayDeque<HttpContent> waitingBody = new ArrayDeque<>();

    private final long timeoutNanos;
    private UpstreamConnection upstream;
    private ScheduledFuture<?> timeout;
    private ChannelFuture lastWrite;
    private boolean requestComplete;
    private boolean responseStarted;
    private boolean skippingInformational;
    private boolean closeDownstreamAfter;
    private boolean upstreamReusable;
    private boolean upstreamNeedsFlush;
    private boolean done;
    private long requestBytes;

    HttpExchange(HttpDownstreamHandler downstream, ChannelHandlerContext ctx, UpstreamPool pool,
            HttpRequest request, Route route, RequestRecord record, UpstreamOutcomes outcomes, boolean downstreamKeepAlive,
            HttpVersion downstreamVersion, long maxRequestBody, boolean requestComplete, long timeoutNanos) {
        this.downstream = downstream;
        this.ctx = ctx;
        this.pool = pool;
        this.request = request;
        this.route = route;
        this.record = record;
        this.outcomes = outcomes;
        this.downstreamKeepAlive = downstreamKeepAlive;
        this.downstreamVersion = downstreamVersion;
        this.maxRequestBody = maxRequestBody;
        this.requestComplete = requestComplete;
        this.closeDownstreamAfter = !downstreamKeepAlive;
        this.timeoutNanos = timeoutNanos;
    }

    void start() {
        timeout = ctx.channel().eventLoop().schedule(this::timedOut, timeoutNanos, TimeUnit.NANOSECONDS);
        pool.acquire(this);
        if (upstream == null && !done) {
            downstream.pause(HttpDownstreamHandler.PAUSE_CONNECTING);
        }
    }

    @Override
    public void acquired(UpstreamConnection connection) {
        if (done) {
            pool.release(connection, true);
            return;
        }
        upstream = connection;
        connection.bind(this);
        pool.host().requestStarted();
        Channel channel = connection.channel();
        channel.write(request);
        HttpContent content;
        while ((content = waitingBody.pollFirst()) != null) {
            channel.write(content);
        }
        channel.flush();
        downstream.resume(HttpDownstreamHandler.PAUSE_CONNECTING);
        if (!channel.isWritable()) {
            downstream.pause(HttpDownstreamHandler.PAUSE_UPSTREAM_FULL);
        }
    }

    @Override
    public void failed(UpstreamPool.Failure failure, Throwable cause) {
        if (done) {
            return;
        }
        if (failure == UpstreamPool.Failure.OVERFLOW) {
            record.flag(ResponseFlag.UPSTREAM_OVERFLOW);
            fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "upstream_overflow");
        } else {
            outcomes.failed(pool.host(), UpstreamFailure.CONNECT_FAILURE);
            record.flag(ResponseFlag.UPSTREAM_CONNECTION_FAILURE);
            fail(HttpResponseStatus.SERVICE_UNAVAILABLE, "upstream_connect_failure");
        }
    }

    /** A part of the request body from downstream; ownership passes here. */
    void requestContent(HttpContent content) {
        if (done) {
            ReferenceCountUtil.release(content);
            return;
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
            downstream.requestBodyRejected();
            fail(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "body_too_large");
            return;
        }
        if (upstream == null) {
            waitingBody.addLast(content);
            return;
        }
        Channel channel = upstream.channel();
        channel.write(content);
        upstreamNeedsFlush = true;
        if (!channel.isWritable()) {
            downstream.pause(HttpDownstreamHandler.PAUSE_UPSTREAM_FULL);
        }
    }

    /** Flushes what the current downstream read batch wrote upstream. */
    void flushUpstream() {
        if (upstreamNeedsFlush && upstream != null) {
            upstreamNeedsFlush = false;
            upstream.channel().flush();
        }
    }

    void downstreamWritabilityChanged(boolean writable) {
        if (upstream != null && !done) {
            upstream.channel().config().setAutoRead(writable);
        }
    }

    @Override
    public void onUpstreamWritabilityChanged(boolean writable) {
        if (writable) {
            downstream.resume(HttpDownstreamHandler.PAUSE_UPSTREAM_FULL);
        } else {
            downstream.pause(HttpDownstreamHandler.PAUSE_UPSTREAM_FULL);
        }
    }

    @Override
    public void onResponse(HttpObject msg) {
        if (done) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg.decoderResult().isFailure()) {
            ReferenceCountUtil.release(msg);
            upstreamFailed("upstream_bad_response");
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
            responseStarted = true;
            responseStatus = code;
            outcomes.responded(pool.host(), code);
            prepareResponse(response);
        } else if (skippingInformational) {
            ReferenceCountUtil.release(msg);
            return;
        }
        boolean last = msg instanceof LastHttpContent;
        if (msg instanceof HttpContent) {
            record.sent(((HttpContent) msg).content().readableBytes());
        }
        ChannelFuture written = ctx.write(msg);
        if (last) {
            lastWrite = written;
            finish();
        } else if (!ctx.channel().isWritable()) {
            upstream.channel().config().setAutoRead(false);
        }
    }

    private void prepareResponse(HttpResponse response) {
        upstreamReusable = HttpUtil.isKeepAlive(response);
        HopByHopHeaders.strip(response.headers());
        Http2ExtensionHeaders.strip(response.headers());
        response.setProtocolVersion(HttpVersion.HTTP_1_1);
        HeaderMutations.apply(route.responseHeaders(), response.headers());
        if (downstream.isHttp2Stream()) {
            return;
        }
        if (downstreamVersion == HttpVersion.HTTP_1_0 && HttpUtil.isTransferEncodingChunked(response)) {
            response.headers().remove(HttpHeaderNames.TRANSFER_ENCODING);
            closeDownstreamAfter = true;
        }
        HopByHopHeaders.setKeepAlive(response, downstreamVersion, !closeDownstreamAfter);
    }

    @Override
    public void onResponseBatchComplete() {
        ctx.flush();
    }

    @Override
    public void onUpstreamClosed() {
        if (upstream != null) {
            pool.host().requestFinished();
            upstream = null;
        }
        if (!done) {
            upstreamFailed("upstream_reset");
        }
    }

    private void timedOut() {
        if (done) {
            return;
        }
        if (upstream != null) {
            outcomes.failed(pool.host(), UpstreamFailure.TIMEOUT);
        }
        record.flag(ResponseFlag.UPSTREAM_REQUEST_TIMEOUT);
        record.cluster().timeout();
        if (responseStarted) {
            abort(Http2Error.CANCEL);
        } else {
            fail(HttpResponseStatus.GATEWAY_TIMEOUT, "upstream_timeout");
        }
    }

    private void upstreamFailed(String reason) {
        outcomes.failed(pool.host(), UpstreamFailure.RESET);
        record.flag(reason.equals("upstream_reset")
                ? ResponseFlag.UPSTREAM_CONNECTION_TERMINATION : ResponseFlag.UPSTREAM_PROTOCOL_ERROR);
        record.cluster().reset();
        if (responseStarted && downstream.isGrpc()) {
            endWithGrpcStatus(reason);
        } else if (responseStarted) {
            abort(Http2Error.INTERNAL_ERROR);
        } else {
            fail(HttpResponseStatus.BAD_GATEWAY, reason);
        }
    }

    /** The downstream connection went away: nothing more can be sent, the upstream is unusable. */
    void downstreamClosed() {
        if (done) {
            return;
        }
        done = true;
        record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        cleanUp(false);
        record.finish(responseStatus);
    }

    /** Answers with a gateway error; only possible while no response byte went downstream. */
    private void fail(HttpResponseStatus status, String reason) {
        done = true;
        cleanUp(false);
        FullHttpResponse response = downstream.error(status, reason);
        record.sent(response.content().readableBytes());
        record.finish(response.status().code());
        downstream.exchangeDone(this, ctx.writeAndFlush(response));
    }

    /**
     * Gives up after part of the response went downstream: HTTP/1 closes the connection, the only
     * honest signal; HTTP/2 resets the stream with {@code error}.
     */
    private void abort(Http2Error error) {
        done = true;
        cleanUp(false);
        record.finish(responseStatus);
        downstream.abortResponse(this, error);
    }

    /**
     * The upstream failed in the middle of a gRPC response: trailers with UNAVAILABLE end the
     * call, so that the client learns why instead of seeing a bare reset.
     */
    private void endWithGrpcStatus(String reason) {
        done = true;
        cleanUp(false);
        LastHttpContent trailers = new DefaultLastHttpContent(ctx.alloc().buffer(0));
        trailers.trailingHeaders()
                .setInt(Grpc.STATUS, GrpcStatus.UNAVAILABLE.code())
                .set(Grpc.MESSAGE, reason);
        record.finish(responseStatus);
        downstream.exchangeDone(this, ctx.writeAndFlush(trailers));
    }

    private void finish() {
        done = true;
        ctx.flush();
        cleanUp(upstreamReusable && requestComplete);
        record.cluster().requestCompleted(responseStatus, record.elapsedNanos());
        record.finish(responseStatus);
        downstream.exchangeDone(this, closeDownstreamAfter ? lastWrite : null);
    }

    private void cleanUp(boolean reuseUpstream) {
        if (timeout != null) {
            timeout.cancel(false);
        }
        HttpContent content;
        while ((content = waitingBody.pollFirst()) != null) {
            ReferenceCountUtil.release(content);
        }
        UpstreamConnection connection = upstream;
        upstream = null;
        if (connection != null) {
            pool.host().requestFinished();
            connection.channel().config().setAutoRead(true);
            pool.release(connection, reuseUpstream);
        } else {
            pool.cancel(this);
        }
    }
}
