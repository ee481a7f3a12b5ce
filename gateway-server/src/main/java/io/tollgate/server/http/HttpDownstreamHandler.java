package io.tollgate.server.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.protocols.http1.Http1RequestValidator;
import io.tollgate.protocols.http1.HopByHopHeaders;
import io.tollgate.protocols.http1.Rejection;
import io.tollgate.protocols.http2.Grpc;
import io.tollgate.protocols.http2.GrpcStatus;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.Host;
import io.tollgate.router.route.Route;
import io.tollgate.server.Snapshot;
import io.tollgate.server.listener.PipelineNames;
import io.tollgate.server.upstream.UpstreamPools;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy end of one downstream HTTP/1.x connection, or of one HTTP/2 stream (whose frames a
 * codec turns into the same {@code HttpObject}s). Requests are served one at a time in
 * arrival order: a pipelined request waits, already decoded, until the response before it is
 * written, which keeps responses in order without buffering any response. An HTTP/2 stream
 * carries a single request; what differs is how a response ends: no {@code Connection} header,
 * and where HTTP/1 closes the connection, the stream is reset instead (or, for gRPC, ended with
 * a status in trailers).
 *
 * <p>Reading from the client pauses for three reasons, tracked as bits so that one reason ending
 * does not resume reading while another holds: pipelined requests are queued, the upstream
 * connection is still being set up, or the upstream cannot take more bytes yet.
 */
final class HttpDownstreamHandler extends ChannelInboundHandlerAdapter {

    static final int PAUSE_PIPELINED = 1;
    static final int PAUSE_CONNECTING = 2;
    static final int PAUSE_UPSTREAM_FULL = 4;

    private static final Logger log = LoggerFactory.getLogger(HttpDownstreamHandler.class);
    private static final String PROTOCOL_HTTP2 = "HTTP/2.0";

    /** Where the connection is between two request heads. */
    private enum State {
        /** Waiting for a request head. */
        IDLE,
        /** A request body is streaming to the current exchange. */
        FORWARDING_BODY,
        /** The request was answered locally; its body is read and dropped. */
        DISCARDING_BODY,
        /** The request is complete; its response is in progress. */
        AWAITING_RESPONSE,
        /** The connection closes once the last response is flushed; input is dropped. */
        CLOSING
    }

    private final HttpProxy proxy;
    private final boolean http2Stream;
    /** The state shared by the streams of this stream's connection; null for HTTP/1. */
    private final Http2ConnectionState http2Connection;
    private final ArrayDeque<Object> pipelined = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private UpstreamPools pools;
    private State state = State.IDLE;
    private HttpExchange current;
    private int pauses;
    private PeerAddress peer;
    private boolean firstRequestSeen;
    private boolean draining;
    private boolean grpc;

    /**
     * @param http2Connection the state shared by the streams of the HTTP/2 connection whose stream
     *     this handler serves; null when it serves an HTTP/1 connection
     */
    HttpDownstreamHandler(HttpProxy proxy, Http2ConnectionState http2Connection) {
        this.proxy = proxy;
        this.http2Stream = http2Connection != null;
        this.http2Connection = http2Connection;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.pools = proxy.pools(ctx.channel().eventLoop());
        if (http2Stream) {
            peer = http2Connection.peer();
        } else {
            peer = new PeerAddress(ctx.channel());
            proxy.listenerMetrics().connectionOpened();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (state == State.AWAITING_RESPONSE || !pipelined.isEmpty()) {
            pipelined.addLast(msg);
            pause(PAUSE_PIPELINED);
            return;
        }
        handle(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (current != null) {
            current.flushUpstream();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (current != null) {
            current.downstreamWritabilityChanged(ctx.channel().isWritable());
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!http2Stream) {
            proxy.listenerMetrics().connectionClosed();
        }
        state = State.CLOSING;
        HttpExchange exchange = current;
        current = null;
        if (exchange != null) {
            exchange.downstreamClosed();
        }
        releasePipelined();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent && current == null && state == State.IDLE) {
            ctx.close();
            return;
        }
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("downstream connection {} failed", ctx.channel().remoteAddress(), cause);
        ctx.close();
    }

    private void handle(Object msg) {
        switch (state) {
            case IDLE:
                if (msg instanceof HttpRequest) {
                    startRequest((HttpRequest) msg);
                } else {
                    ReferenceCountUtil.release(msg);
                }
                break;
            case FORWARDING_BODY:
                if (msg instanceof HttpContent) {
                    boolean last = msg instanceof LastHttpContent;
                    current.requestContent((HttpContent) msg);
                    if (last && state == State.FORWARDING_BODY) {
                        state = State.AWAITING_RESPONSE;
                    }
                } else {
                    ReferenceCountUtil.release(msg);
                }
                break;
            case DISCARDING_BODY:
                if (msg instanceof LastHttpContent) {
                    state = State.IDLE;
                }
                ReferenceCountUtil.release(msg);
                break;
            default:
                ReferenceCountUtil.release(msg);
        }
    }

    private void startRequest(HttpRequest request) {
        boolean complete = request instanceof LastHttpContent;
        if (http2Stream) {
            grpc = Grpc.isGrpc(request.headers());
            collapseRepeatedHost(request);
        } else if (!firstRequestSeen) {
            firstRequestSeen = true;
            dropUpgradeHandler();
        }
        String protocol = http2Stream ? PROTOCOL_HTTP2 : request.protocolVersion().text();
        if (request.decoderResult().isFailure()) {
            RequestRecord record = new RequestRecord(proxy, request, protocol, null, peer.text());
            Rejection rejection = Http1RequestValidator.fromDecoderFailure(request);
            ReferenceCountUtil.release(request);
            reject(record, rejection);
            return;
        }
        Rejection rejection = Http1RequestValidator.validate(request);
        if (rejection != null) {
            RequestRecord record = new RequestRecord(proxy, request, protocol, null, peer.text());
            ReferenceCountUtil.release(request);
            reject(record, rejection);
            return;
        }
        state = complete ? State.IDLE : State.DISCARDING_BODY;
        HttpRouteRequest view = new HttpRouteRequest(request, peer.ip());
        RequestRecord record = new RequestRecord(proxy, request, protocol, view.authority(), peer.text());
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        HttpVersion version = request.protocolVersion();
        Snapshot snapshot = proxy.snapshot();
        Route route = snapshot.routeTable(proxy.listenerConfig().name()).route(view);
        record.route(route);
        if (route == null) {
            record.flag(ResponseFlag.NO_ROUTE);
            proxy.listenerMetrics().error("no_route");
            respondLocally(record, version, keepAlive, error(HttpResponseStatus.SERVICE_UNAVAILABLE, "no_route"));
        } else if (route.kind() == Route.Kind.DIRECT_RESPONSE) {
            FullHttpResponse response = LocalResponses.text(ctx.alloc(),
                    HttpResponseStatus.valueOf(route.directResponse().status()), route.directResponse().body());
            HeaderMutations.apply(route.responseHeaders(), response.headers());
            respondLocally(record, version, keepAlive, response);
        } else if (route.kind() == Route.Kind.REDIRECT) {
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.valueOf(route.redirectCode()), ctx.alloc().buffer(0));
            response.headers()
                    .set(HttpHeaderNames.LOCATION, route.redirectLocation(view, "http", view.hostHeader()))
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
            HeaderMutations.apply(route.responseHeaders(), response.headers());
            respondLocally(record, version, keepAlive, response);
        } else {
            forward(request, view, record, route, snapshot, keepAlive, complete);
            return;
        }
        ReferenceCountUtil.release(request);
    }

    private void forward(HttpRequest request, HttpRouteRequest view, RequestRecord record, Route route,
            Snapshot snapshot, boolean keepAlive, boolean complete) {
        HttpVersion version = request.protocolVersion();
        long maxBody = proxy.listenerConfig().http().maxRequestBodyBytes();
        if (HttpUtil.getContentLength(request, 0L) > maxBody) {
            ReferenceCountUtil.release(request);
            state = State.CLOSING;
            record.flag(ResponseFlag.REQUEST_TOO_LARGE);
            proxy.listenerMetrics().error("body_too_large");
            respondLocally(record, version, false, error(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "body_too_large"));
            return;
        }
        if (request.headers().contains(HttpHeaderNames.EXPECT)) {
            if (!HttpUtil.is100ContinueExpected(request)) {
                ReferenceCountUtil.release(request);
                state = State.CLOSING;
                proxy.listenerMetrics().error("unsupported_expectation");
                respondLocally(record, version, false,
                        error(HttpResponseStatus.EXPECTATION_FAILED, "unsupported_expectation"));
                return;
            }
            request.headers().remove(HttpHeaderNames.EXPECT);
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
                    ctx.alloc().buffer(0)));
        }
        String clusterName = route.chooseCluster(ThreadLocalRandom.current().nextInt());
        Cluster cluster = snapshot.clusters().cluster(clusterName);
        Host host = cluster == null ? null : cluster.choose(view, route.metadataMatch(), route.hashPolicy());
        if (host == null) {
            ReferenceCountUtil.release(request);
            record.flag(ResponseFlag.NO_HEALTHY_UPSTREAM);
            proxy.metrics().cluster(clusterName).noHealthyHost();
            respondLocally(record, version, keepAlive,
                    error(HttpResponseStatus.SERVICE_UNAVAILABLE, "no_healthy_upstream"));
            return;
        }
        long timeoutNanos = route.timeout().toNanos();
        if (grpc) {
            long grpcTimeout = Grpc.timeoutNanos(request.headers().get(Grpc.TIMEOUT));
            timeoutNanos = grpcTimeout >= 0 ? grpcTimeout : timeoutNanos;
        }
        ForwardedRequest.prepare(request, view, route, peer.ip(),
                ClusterConfig.H2.equals(cluster.config().protocol()));
        record.requestId(request.headers().get(ForwardedRequest.X_REQUEST_ID));
        state = complete ? State.AWAITING_RESPONSE : State.FORWARDING_BODY;
        UpstreamTarget target = new UpstreamTarget(route, cluster, view, pools, snapshot.outliers().outcomes(clusterName));
        current = new HttpExchange(this, ctx, request, target, record, keepAlive, version, maxBody, complete,
                timeoutNanos);
        current.start(host);
    }

    /**
     * An error the gateway answers itself: the usual text response, or for a gRPC request a
     * trailers-only response (status 200, {@code grpc-status} and {@code grpc-message} in the
     * headers, end of stream) that gRPC clients turn into a status.
     */
    FullHttpResponse error(HttpResponseStatus status, String reason) {
        if (grpc) {
            return LocalResponses.grpcError(ctx.alloc(), GrpcStatus.forGatewayError(status.code(), reason), reason);
        }
        return LocalResponses.error(ctx.alloc(), status, reason);
    }

    /** Whether this handler serves one HTTP/2 stream. */
    boolean isHttp2Stream() {
        return http2Stream;
    }

    /** Whether the current request is gRPC (only recognised on HTTP/2). */
    boolean isGrpc() {
        return grpc;
    }

    /**
     * An HTTP/2 request may carry both {@code :authority} (which the codec turns into Host) and a
     * Host header; RFC 9113 section 8.3.1 lets them agree, so an identical repeat is dropped
     * before validation, which refuses a real conflict.
     */
    private static void collapseRepeatedHost(HttpRequest request) {
        List<String> hosts = request.headers().getAll(HttpHeaderNames.HOST);
        if (hosts.size() > 1 && hosts.stream().distinct().count() == 1) {
            request.headers().set(HttpHeaderNames.HOST, hosts.get(0));
        }
    }

    /** Refuses a request whose framing cannot be trusted: answer, then close. */
    private void reject(RequestRecord record, Rejection rejection) {
        state = State.CLOSING;
        record.flag(ResponseFlag.DOWNSTREAM_PROTOCOL_ERROR);
        proxy.listenerMetrics().error(rejection.reason());
        respondLocally(record, HttpVersion.HTTP_1_1, false,
                error(HttpResponseStatus.valueOf(rejection.status()), rejection.reason()));
    }

    /**
     * An h2c upgrade is offered on a connection's first request; once that request arrived as
     * plain HTTP/1, the upgrade handler only costs a pass per message, so it leaves the pipeline.
     */
    private void dropUpgradeHandler() {
        if (ctx.pipeline().get(PipelineNames.UPGRADE) != null) {
            ctx.pipeline().remove(PipelineNames.UPGRADE);
        }
    }

    /**
     * Flushes what the current exchange wrote downstream: HTTP/1 at once; an HTTP/2 stream through
     * its connection's flush, which runs once for all the streams that finished in this pass.
     */
    void flushResponse() {
        if (http2Stream) {
            http2Connection.flushSoon();
        } else {
            ctx.flush();
        }
    }

    /** Writes a response the gateway made itself and closes afterwards when asked to. */
    private void respondLocally(RequestRecord record, HttpVersion version, boolean keepAlive,
            FullHttpResponse response) {
        record.sent(response.content().readableBytes());
        record.finish(response.status().code());
        boolean close = !keepAlive || state == State.CLOSING;
        if (!http2Stream) {
            HopByHopHeaders.setKeepAlive(response, version, !close);
        }
        ChannelFuture written = ctx.writeAndFlush(response);
        if (close) {
            state = State.CLOSING;
            endAfter(written);
        }
    }

    /**
     * Ends what carries the request once {@code lastWrite} is done: HTTP/1 closes the connection;
     * an HTTP/2 stream whose client is still sending is reset with NO_ERROR (RFC 9113 section
     * 8.1), which stops the upload without failing the complete response.
     */
    private void endAfter(ChannelFuture lastWrite) {
        if (!http2Stream) {
            lastWrite.addListener(ChannelFutureListener.CLOSE);
            return;
        }
        lastWrite.addListener(f -> resetStream(Http2Error.NO_ERROR));
    }

    /** Resets this HTTP/2 stream with {@code error} unless it already closed. */
    private void resetStream(Http2Error error) {
        if (ctx.channel().isActive()) {
            ctx.channel().writeAndFlush(new DefaultHttp2ResetFrame(error));
        }
    }

    /**
     * Called by an exchange that gives up after part of its response went downstream: HTTP/1
     * closes the connection, the only honest signal; HTTP/2 resets just this stream with
     * {@code error}.
     */
    void abortResponse(HttpExchange exchange, Http2Error error) {
        if (exchange != current) {
            return;
        }
        if (http2Stream) {
            resetStream(error);
            exchangeDone(exchange, null);
            return;
        }
        exchangeDone(exchange, ctx.writeAndFlush(Unpooled.EMPTY_BUFFER));
    }

    /** Called by an exchange that sent a 413 for a body that outgrew the limit mid-stream. */
    void requestBodyRejected() {
        state = State.CLOSING;
    }

    /**
     * Called by the current exchange when its response is fully written (or it gave up). Moves
     * on to the next pipelined request, or ends the connection (an HTTP/2 stream: the stream)
     * after {@code endAfter} when the exchange says it cannot carry another request.
     *
     * @param endAfter the exchange's last write, after which to end; null to carry on
     */
    void exchangeDone(HttpExchange exchange, ChannelFuture endAfter) {
        if (exchange != current) {
            return;
        }
        current = null;
        if (endAfter != null || state == State.CLOSING) {
            state = State.CLOSING;
            endAfter(endAfter != null ? endAfter : ctx.writeAndFlush(Unpooled.EMPTY_BUFFER));
            releasePipelined();
            resume(PAUSE_CONNECTING | PAUSE_UPSTREAM_FULL);
            return;
        }
        // The state moves first: an HTTP/2 stream channel delivers buffered input as soon as reading resumes.
        state = state == State.FORWARDING_BODY ? State.DISCARDING_BODY : State.IDLE;
        resume(PAUSE_CONNECTING | PAUSE_UPSTREAM_FULL);
        drainPipelined();
    }

    private void drainPipelined() {
        if (draining) {
            return;
        }
        draining = true;
        try {
            while (state != State.AWAITING_RESPONSE && state != State.CLOSING && !pipelined.isEmpty()) {
                handle(pipelined.pollFirst());
            }
            if (current != null) {
                current.flushUpstream();
            }
        } finally {
            draining = false;
        }
        if (pipelined.isEmpty()) {
            resume(PAUSE_PIPELINED);
        }
    }

    private void releasePipelined() {
        Object msg;
        while ((msg = pipelined.pollFirst()) != null) {
            ReferenceCountUtil.release(msg);
        }
    }

    void pause(int reason) {
        if (pauses == 0) {
            ctx.channel().config().setAutoRead(false);
        }
        pauses |= reason;
    }

    void resume(int reason) {
        if (pauses == 0) {
            return;
        }
        pauses &= ~reason;
        if (pauses == 0) {
            ctx.channel().config().setAutoRead(true);
        }
    }
}
