package io.tollgate.server.http1;

import io.netty.buffer.Unpooled;
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
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.http1.Http1RequestValidator;
import io.tollgate.protocols.http1.HopByHopHeaders;
import io.tollgate.protocols.http1.Rejection;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.Host;
import io.tollgate.router.route.Route;
import io.tollgate.server.Snapshot;
import io.tollgate.server.upstream.UpstreamPools;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy end of one downstream HTTP/1.x connection. Requests are served one at a time in
 * arrival order: a pipelined request waits, already decoded, until the response before it is
 * written, which keeps responses in order without buffering any response.
 *
 * <p>Reading from the client pauses for three reasons, tracked as bits so that one reason ending
 * does not resume reading while another holds: pipelined requests are queued, the upstream
 * connection is still being set up, or the upstream cannot take more bytes yet.
 */
final class Http1DownstreamHandler extends ChannelInboundHandlerAdapter {

    static final int PAUSE_PIPELINED = 1;
    static final int PAUSE_CONNECTING = 2;
    static final int PAUSE_UPSTREAM_FULL = 4;

    private static final Logger log = LoggerFactory.getLogger(Http1DownstreamHandler.class);

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

    private final Http1Proxy proxy;
    private final ArrayDeque<Object> pipelined = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private UpstreamPools pools;
    private State state = State.IDLE;
    private Http1Exchange current;
    private int pauses;
    private boolean draining;

    Http1DownstreamHandler(Http1Proxy proxy) {
        this.proxy = proxy;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.pools = proxy.pools(ctx.channel().eventLoop());
        proxy.listenerMetrics().connectionOpened();
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
        proxy.listenerMetrics().connectionClosed();
        state = State.CLOSING;
        Http1Exchange exchange = current;
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
        if (request.decoderResult().isFailure()) {
            RequestRecord record = new RequestRecord(proxy, request, null, remoteAddress());
            Rejection rejection = Http1RequestValidator.fromDecoderFailure(request);
            ReferenceCountUtil.release(request);
            reject(record, rejection);
            return;
        }
        Rejection rejection = Http1RequestValidator.validate(request);
        if (rejection != null) {
            RequestRecord record = new RequestRecord(proxy, request, null, remoteAddress());
            ReferenceCountUtil.release(request);
            reject(record, rejection);
            return;
        }
        state = complete ? State.IDLE : State.DISCARDING_BODY;
        Http1RouteRequest view = new Http1RouteRequest(request);
        RequestRecord record = new RequestRecord(proxy, request, view.authority(), remoteAddress());
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

    private void forward(HttpRequest request, Http1RouteRequest view, RequestRecord record, Route route,
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
        Host host = cluster == null ? null : cluster.choose(view, route.metadataMatch());
        if (host == null) {
            ReferenceCountUtil.release(request);
            record.flag(ResponseFlag.NO_HEALTHY_UPSTREAM);
            proxy.metrics().cluster(clusterName).noHealthyHost();
            respondLocally(record, version, keepAlive,
                    error(HttpResponseStatus.SERVICE_UNAVAILABLE, "no_healthy_upstream"));
            return;
        }
        ForwardedRequest.prepare(request, view, route, (InetSocketAddress) ctx.channel().remoteAddress());
        record.requestId(request.headers().get(ForwardedRequest.X_REQUEST_ID));
        record.upstream(clusterName, host.id());
        state = complete ? State.AWAITING_RESPONSE : State.FORWARDING_BODY;
        current = new Http1Exchange(this, ctx, pools.pool(cluster, host), request, route, record,
                snapshot.outliers().outcomes(clusterName), keepAlive, version, maxBody, complete);
        current.start();
    }

    private FullHttpResponse error(HttpResponseStatus status, String reason) {
        return LocalResponses.error(ctx.alloc(), status, reason);
    }

    /** Refuses a request whose framing cannot be trusted: answer, then close. */
    private void reject(RequestRecord record, Rejection rejection) {
        state = State.CLOSING;
        record.flag(ResponseFlag.DOWNSTREAM_PROTOCOL_ERROR);
        proxy.listenerMetrics().error(rejection.reason());
        respondLocally(record, HttpVersion.HTTP_1_1, false,
                error(HttpResponseStatus.valueOf(rejection.status()), rejection.reason()));
    }

    private String remoteAddress() {
        return String.valueOf(ctx.channel().remoteAddress());
    }

    /** Writes a response the gateway made itself and closes afterwards when asked to. */
    private void respondLocally(RequestRecord record, HttpVersion version, boolean keepAlive,
            FullHttpResponse response) {
        record.sent(response.content().readableBytes());
        record.finish(response.status().code());
        boolean close = !keepAlive || state == State.CLOSING;
        HopByHopHeaders.setKeepAlive(response, version, !close);
        if (close) {
            state = State.CLOSING;
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(response);
        }
    }

    /** Called by an exchange that sent a 413 for a body that outgrew the limit mid-stream. */
    void requestBodyRejected() {
        state = State.CLOSING;
    }

    /**
     * Called by the current exchange when its response is fully written (or it gave up). Moves
     * on to the next pipelined request, or closes when the exchange says the connection cannot
     * carry another request.
     */
    void exchangeDone(Http1Exchange exchange, boolean closeConnection) {
        if (exchange != current) {
            return;
        }
        current = null;
        resume(PAUSE_CONNECTING | PAUSE_UPSTREAM_FULL);
        if (closeConnection || state == State.CLOSING) {
            state = State.CLOSING;
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            releasePipelined();
            return;
        }
        state = state == State.FORWARDING_BODY ? State.DISCARDING_BODY : State.IDLE;
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
