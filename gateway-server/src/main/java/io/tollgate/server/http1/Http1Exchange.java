package io.tollgate.server.http1;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
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
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.http1.HopByHopHeaders;
import io.tollgate.router.outlier.UpstreamFailure;
import io.tollgate.router.outlier.UpstreamOutcomes;
import io.tollgate.router.route.Route;
import io.tollgate.server.upstream.Http1ConnectionPool;
import io.tollgate.server.upstream.Http1UpstreamConnection;
import io.tollgate.server.upstream.UpstreamListener;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One request and its response crossing the proxy over HTTP/1.1: it waits for an upstream
 * connection, streams the request body up and the response down without buffering either (the
 * body read while connecting excepted, which reading being paused bounds), enforces the route
 * timeout, and turns upstream failures into 502/503/504 when nothing was sent downstream yet.
 *
 * <p>Runs entirely on the downstream connection's event loop, which also owns the upstream
 * connection, so no state here is shared between threads.
 */
final class Http1Exchange implements Http1ConnectionPool.Acquirer, UpstreamListener {

    private final Http1DownstreamHandler downstream;
    private final ChannelHandlerContext ctx;
    private final Http1ConnectionPool pool;
    private final HttpRequest request;
    private final Route route;
    private final RequestRecord record;
    private final UpstreamOutcomes outcomes;
    private int responseStatus;
    private final boolean downstreamKeepAlive;
    private final HttpVersion downstreamVersion;
    private final long maxRequestBody;
    private final ArrayDeque<HttpContent> waitingBody = new ArrayDeque<>();

    private Http1UpstreamConnection upstream;
    private ScheduledFuture<?> timeout;
    private boolean requestComplete;
    private boolean responseStarted;
    private boolean skippingInformational;
    private boolean closeDownstreamAfter;
    private boolean upstreamReusable;
    private boolean upstreamNeedsFlush;
    private boolean done;
    private long requestBytes;

    Http1Exchange(Http1DownstreamHandler downstream, ChannelHandlerContext ctx, Http1ConnectionPool pool,
            HttpRequest request, Route route, RequestRecord record, UpstreamOutcomes outcomes, boolean downstreamKeepAlive,
            HttpVersion downstreamVersion, long maxRequestBody, boolean requestComplete) {
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
    }

    void start() {
        timeout = ctx.channel().eventLoop().schedule(this::timedOut, route.timeout().toNanos(), TimeUnit.NANOSECONDS);
        downstream.pause(Http1DownstreamHandler.PAUSE_CONNECTING);
        pool.acquire(this);
    }

    @Override
    public void acquired(Http1UpstreamConnection connection) {
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
        downstream.resume(Http1DownstreamHandler.PAUSE_CONNECTING);
        if (!channel.isWritable()) {
            downstream.pause(Http1DownstreamHandler.PAUSE_UPSTREAM_FULL);
        }
    }

    @Override
    public void failed(Http1ConnectionPool.Failure failure, Throwable cause) {
        if (done) {
            return;
        }
        if (failure == Http1ConnectionPool.Failure.OVERFLOW) {
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
            downstream.pause(Http1DownstreamHandler.PAUSE_UPSTREAM_FULL);
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
            downstream.resume(Http1DownstreamHandler.PAUSE_UPSTREAM_FULL);
        } else {
            downstream.pause(Http1DownstreamHandler.PAUSE_UPSTREAM_FULL);
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
        ctx.write(msg);
        if (last) {
            finish();
        } else if (!ctx.channel().isWritable()) {
            upstream.channel().config().setAutoRead(false);
        }
    }

    private void prepareResponse(HttpResponse response) {
        upstreamReusable = HttpUtil.isKeepAlive(response);
        HopByHopHeaders.strip(response.headers());
        response.setProtocolVersion(HttpVersion.HTTP_1_1);
        HeaderMutations.apply(route.responseHeaders(), response.headers());
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
            abort();
        } else {
            fail(HttpResponseStatus.GATEWAY_TIMEOUT, "upstream_timeout");
        }
    }

    private void upstreamFailed(String reason) {
        outcomes.failed(pool.host(), UpstreamFailure.RESET);
        record.flag(reason.equals("upstream_reset")
                ? ResponseFlag.UPSTREAM_CONNECTION_TERMINATION : ResponseFlag.UPSTREAM_PROTOCOL_ERROR);
        record.cluster().reset();
        if (responseStarted) {
            abort();
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
        FullHttpResponse response = LocalResponses.error(ctx.alloc(), status, reason);
        record.sent(response.content().readableBytes());
        record.finish(status.code());
        ctx.writeAndFlush(response);
        downstream.exchangeDone(this, true);
    }

    /** Gives up after part of the response went downstream: the only honest signal is a close. */
    private void abort() {
        done = true;
        cleanUp(false);
        record.finish(responseStatus);
        downstream.exchangeDone(this, true);
    }

    private void finish() {
        done = true;
        ctx.flush();
        cleanUp(upstreamReusable && requestComplete);
        record.cluster().requestCompleted(responseStatus, record.elapsedNanos());
        record.finish(responseStatus);
        downstream.exchangeDone(this, closeDownstreamAfter);
    }

    private void cleanUp(boolean reuseUpstream) {
        if (timeout != null) {
            timeout.cancel(false);
        }
        HttpContent content;
        while ((content = waitingBody.pollFirst()) != null) {
            ReferenceCountUtil.release(content);
        }
        Http1UpstreamConnection connection = upstream;
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
