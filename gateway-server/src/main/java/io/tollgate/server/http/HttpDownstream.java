package io.tollgate.server.http;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.filter.MirrorListener;
import io.tollgate.core.filter.RequestBodyListener;
import io.tollgate.protocols.http1.HopByHopHeaders;
import io.tollgate.protocols.http1.Http1RequestValidator;
import io.tollgate.protocols.http1.Rejection;
import io.tollgate.protocols.http2.Grpc;
import io.tollgate.router.host.Host;
import io.tollgate.router.route.Route;
import io.tollgate.server.dispatch.DownstreamSide;
import io.tollgate.server.dispatch.GatewayError;
import io.tollgate.server.exchange.Deadlines;
import io.tollgate.server.exchange.ExchangeRecord;
import io.tollgate.server.exchange.ExchangeTarget;
import io.tollgate.server.filter.FilterRun;
import io.tollgate.server.filter.StreamFilterChain;
import io.tollgate.server.snapshot.Snapshot;
import io.tollgate.server.upstream.http.UpstreamPools;

/**
 * The proxy end of one downstream HTTP/1.x connection, or of one HTTP/2 stream (whose frames are
 * turned into the same {@code HttpObject}s); a {@link DownstreamCarrier} does the I/O. Requests are served one at a time in
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
final class HttpDownstream implements DownstreamSide<HttpRouteRequest> {

    static final int PAUSE_PIPELINED = 1;
    static final int PAUSE_CONNECTING = 2;
    static final int PAUSE_UPSTREAM_FULL = 4;

    private static final String PROTOCOL_HTTP2 = "HTTP/2.0";

    private final HttpProxy proxy;
    private final DownstreamCarrier carrier;
    private final boolean http2Stream;
    private final UpstreamPools pools;
    private final Deadlines deadlines;
    private final PeerAddress peer;
    /** Made on the first pipelined request: an HTTP/2 stream never needs one. */
    private PipelinedRequests pipelined;
    private DownstreamState state = DownstreamState.IDLE;
    private DownstreamExchange current;
    /** The filter run of the request in progress, null when its listener has no filters. */
    private FilterRun filters;
    private HeldRequestBody heldBody; // the held request's body a filter reads, or null
    private int pauses;
    private boolean firstRequestSeen;
    private boolean draining;
    private boolean lastResponse;
    private boolean grpc;

    HttpDownstream(HttpProxy proxy, DownstreamCarrier carrier) {
        this.proxy = proxy;
        this.carrier = carrier;
        this.http2Stream = carrier.isHttp2Stream();
        this.pools = proxy.pools(carrier.eventLoop());
        this.deadlines = proxy.deadlines(carrier.eventLoop());
        this.peer = carrier.peer();
    }

    /** A request part from the client; ownership passes here. */
    void read(Object msg) {
        if (state == DownstreamState.AWAITING_RESPONSE || state == DownstreamState.FILTERING || hasPipelined()) {
            if (pipelined == null) {
                pipelined = new PipelinedRequests();
            }
            pipelined.addLast(msg);
            // a filter reading the held body wants more; one it told may have answered and drained the queue already
            boolean bodyWanted = state == DownstreamState.FILTERING && heldBody != null && heldBody.keepReading(msg);
            if (!bodyWanted && hasPipelined()) {
                pause(PAUSE_PIPELINED);
            }
            return;
        }
        handle(msg);
    }

    /** The end of a batch of reads: what went upstream in it is flushed. */
    void readComplete() {
        if (current != null) {
            current.flushUpstream();
        }
    }

    void writabilityChanged(boolean writable) {
        if (current != null) {
            current.downstreamWritabilityChanged(writable);
        }
    }

    /** The carrier closed: the exchange in progress ends, nothing more is read. */
    void closed() {
        boolean held = state == DownstreamState.FILTERING;
        state = DownstreamState.CLOSING;
        if (held) {
            ReferenceCountUtil.release(((HttpRouteRequest) filters.request()).request());
            filters.abandon();
        }
        DownstreamExchange exchange = current;
        current = null;
        if (exchange != null) {
            exchange.downstreamClosed();
        }
        releasePipelined();
    }

    /**
     * Makes the response in progress the connection's last: it says {@code Connection: close} when
     * its head is still to be written, and the connection closes after it (a drain).
     */
    void closeAfterResponse() {
        lastResponse = true;
    }

    /** Whether an HTTP/1 request arrived on the connection yet. */
    boolean requestSeen() {
        return firstRequestSeen;
    }

    /** Whether the response in progress is the connection's last ({@link #closeAfterResponse}). */
    boolean lastResponse() {
        return lastResponse;
    }

    /** Whether the carrier has nothing in progress and may close for being idle. */
    boolean isIdle() {
        return current == null && state == DownstreamState.IDLE;
    }

    EventLoop eventLoop() {
        return carrier.eventLoop();
    }

    /** The client, as filters and the access log see it. */
    PeerAddress peer() {
        return peer;
    }

    /** The timeouts of this event loop's requests. */
    Deadlines deadlines() {
        return deadlines;
    }

    ByteBufAllocator alloc() {
        return carrier.alloc();
    }

    boolean isWritable() {
        return carrier.isWritable();
    }

    /** Writes a response part; see {@link DownstreamCarrier#write}. */
    ChannelFuture write(HttpObject msg, boolean track) {
        return carrier.write(msg, track);
    }

    /** Writes and flushes the last part of a response the gateway made, returning the write's future. */
    ChannelFuture writeAndFlush(HttpObject msg) {
        ChannelFuture written = carrier.write(msg, true);
        carrier.flush();
        return written;
    }

    private boolean hasPipelined() {
        return pipelined != null && !pipelined.isEmpty();
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
                    state = msg instanceof LastHttpContent ? DownstreamState.AWAITING_RESPONSE
                            : DownstreamState.FORWARDING_BODY;
                    current.requestContent((HttpContent) msg);
                } else {
                    ReferenceCountUtil.release(msg);
                }
                break;
            case DISCARDING_BODY:
                if (((HttpObject) msg).decoderResult().isFailure()) {
                    proxy.listenerMetrics().error("bad_request_body");
                    state = DownstreamState.CLOSING;
                    carrier.endAfter(null);
                } else if (msg instanceof LastHttpContent) {
                    state = DownstreamState.IDLE;
                }
                ReferenceCountUtil.release(msg);
                break;
            default:
                ReferenceCountUtil.release(msg);
        }
    }

    private void startRequest(HttpRequest request) {
        filters = null;
        heldBody = null;
        boolean complete = request instanceof LastHttpContent;
        if (http2Stream) {
            grpc = Grpc.isGrpc(request.headers());
        } else if (!firstRequestSeen) {
            firstRequestSeen = true;
            carrier.firstRequestSeen();
        }
        String protocol = http2Stream ? PROTOCOL_HTTP2 : request.protocolVersion().text();
        Rejection rejection = request.decoderResult().isFailure() ? Http1RequestValidator.fromDecoderFailure(request)
                : Http1RequestValidator.validate(request);
        if (rejection != null) {
            ExchangeRecord record = newRecord(request, protocol, null);
            ReferenceCountUtil.release(request);
            reject(record, rejection);
            return;
        }
        state = complete ? DownstreamState.IDLE : DownstreamState.DISCARDING_BODY;
        if (proxy.paths() != null && !PathAnswers.forward(proxy, proxy.paths(), this, request, protocol)) {
            return;
        }
        HttpRouteRequest context = new HttpRouteRequest(this, request, peer.ip(), HttpUtil.isKeepAlive(request),
                complete);
        context.record(newRecord(request, protocol, context.authority()));
        proxy.dispatcher().dispatch(context, this);
    }

    @Override
    public void refuse(HttpRouteRequest request, GatewayError error) {
        state = request.complete() ? DownstreamState.IDLE : DownstreamState.DISCARDING_BODY;
        boolean keepAlive = error == GatewayError.OVERLOAD ? request.keepAlive() && http2Stream : request.keepAlive();
        FullHttpResponse call = LocalResponses.callRefusal(carrier.alloc(), request.route(), error);
        respondLocally(request.record(), request.version(), keepAlive,
                call != null ? call : error(HttpResponseStatus.SERVICE_UNAVAILABLE, error.reason()));
        ReferenceCountUtil.release(request.request());
    }

    @Override
    public FilterRun filterRun(HttpRouteRequest request, StreamFilterChain chain) {
        ForwardedRequest.addForwardingHeaders(request.request().headers(), peer.ip(), proxy.scheme());
        filters = new FilterRun(chain, request, deadlines, carrier.eventLoop(), proxy.listenerConfig().name());
        return filters;
    }

    @Override
    public void held(HttpRouteRequest request) {
        state = DownstreamState.FILTERING;
    }

    /** The request's filters let it through, at once or later: the route's action follows. */
    @Override
    public void passed(HttpRouteRequest request) {
        state = request.complete() ? DownstreamState.IDLE : DownstreamState.DISCARDING_BODY;
        proxy.dispatcher().act(request, this);
    }

    /** Answers a direct response or a redirect. */
    @Override
    public boolean answerByRoute(HttpRouteRequest request) {
        FullHttpResponse response = LocalResponses.ofRoute(carrier.alloc(), request, proxy.scheme());
        if (response == null) {
            return false;
        }
        writeLocal(request.record(), request.version(), request.keepAlive(), response, false);
        ReferenceCountUtil.release(request.request());
        return true;
    }

    ExchangeRecord newRecord(HttpRequest request, String protocol, String authority) {
        ExchangeRecord record = new ExchangeRecord(proxy.records(), protocol, request.method().name(), request.uri(),
                authority, peer.text(), peer.identity(), false);
        record.requestHeaders(request.headers());
        if (grpc) {
            record.grpc();
        }
        return record;
    }

    /** An {@code rpc_call} whose cluster has no host now (a per-service template) reads its body first. */
    @Override
    public boolean awaitCluster(HttpRouteRequest request, String clusterName) {
        return RpcCallRoutes.awaitCluster(this, request);
    }

    /**
     * Refuses a body over the listener's limit and an expectation other than {@code 100-continue};
     * answers an {@code rpc_call} route's OpenAPI document.
     */
    @Override
    public boolean admit(HttpRouteRequest context) {
        HttpRequest request = context.request();
        FullHttpResponse document = RpcCallRoutes.openApi(this, context, proxy.rpcCalls());
        if (document != null) {
            writeLocal(context.record(), context.version(), context.keepAlive(), document, false);
            ReferenceCountUtil.release(request);
            return false;
        }
        if (HttpUtil.getContentLength(request, 0L) > proxy.listenerConfig().http().maxRequestBodyBytes()) {
            context.record().flag(ResponseFlag.REQUEST_TOO_LARGE);
            return refuseAndClose(context, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "body_too_large");
        }
        if (request.headers().contains(HttpHeaderNames.EXPECT)) {
            if (!HttpUtil.is100ContinueExpected(request)) {
                return refuseAndClose(context, HttpResponseStatus.EXPECTATION_FAILED, "unsupported_expectation");
            }
            request.headers().remove(HttpHeaderNames.EXPECT);
            writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
                    carrier.alloc().buffer(0)));
        }
        return true;
    }

    /** Answers an error, counted by {@code reason}, and closes the connection after it; always false. */
    private boolean refuseAndClose(HttpRouteRequest context, HttpResponseStatus status, String reason) {
        HttpVersion version = context.version();
        ReferenceCountUtil.release(context.request());
        state = DownstreamState.CLOSING;
        proxy.listenerMetrics().error(reason);
        respondLocally(context.record(), version, false, error(status, reason));
        return false;
    }

    @Override
    public void forward(HttpRouteRequest context, ExchangeTarget target, Host host) {
        state = context.complete() ? DownstreamState.AWAITING_RESPONSE : DownstreamState.FORWARDING_BODY;
        current = RpcCallRoutes.exchange(this, context, target, proxy, pools);
        if (current != null) {
            current.start(host);
            return;
        }
        HttpRequest request = context.request();
        String originForm = ForwardedRequest.prepare(request, context, context.route(), peer.ip(), proxy.scheme(),
                ClusterConfig.H2.equals(target.cluster().config().protocol()), filters != null);
        if (filters != null) {
            context.forwarding(request, originForm);
        }
        context.record().requestId(request.headers().get(ForwardedRequest.X_REQUEST_ID));
        current = new HttpExchange(this, context, target, pools, proxy.listenerConfig().http().maxRequestBodyBytes());
        current.start(host);
    }

    /** A shadow copy of a request being forwarded, on this loop's pools and timers ({@link HttpShadowCopy#start}). */
    HttpShadowCopy shadow(String cluster, long maxBodyBytes, MirrorListener listener, Snapshot snapshot, Route route,
            HttpRequest prepared, HttpRouteRequest view, String originForm) {
        return HttpShadowCopy.start(cluster, maxBodyBytes, listener, snapshot, proxy.metrics(), pools, deadlines,
                carrier.eventLoop(), route, prepared, view, originForm);
    }

    /** An error the gateway answers itself, in the request's form: text, or gRPC trailers-only. */
    FullHttpResponse error(HttpResponseStatus status, String reason) {
        return LocalResponses.error(carrier.alloc(), grpc, status, reason);
    }

    /**
     * A stream filter answers the request, in the request's form (text, or gRPC trailers-only with
     * {@code grpcStatus} when given; with no {@code reason}, an empty answer that is no error);
     * then the connection carries on as after any local answer.
     */
    void filterAnswered(HttpRouteRequest context, int httpStatus, int grpcStatus, String reason) {
        if (context.filters() != filters) {
            return;
        }
        HttpRequest request = context.request();
        state = context.complete() ? DownstreamState.IDLE : DownstreamState.DISCARDING_BODY;
        HttpResponseStatus status = HttpResponseStatus.valueOf(httpStatus);
        if (reason == null) {
            writeLocal(context.record(), request.protocolVersion(), context.keepAlive(),
                    LocalResponses.empty(carrier.alloc(), status), false);
            ReferenceCountUtil.release(request);
            return;
        }
        proxy.listenerMetrics().error(reason);
        String body = grpc ? null : context.filters().answerBody();
        FullHttpResponse response = grpc && grpcStatus >= 0
                ? LocalResponses.grpcError(carrier.alloc(), grpcStatus, reason)
                : body != null ? LocalResponses.error(carrier.alloc(), status, reason, body) : error(status, reason);
        respondLocally(context.record(), request.protocolVersion(), context.keepAlive(), response);
        ReferenceCountUtil.release(request);
    }

    /** A filter reads the body of the request it holds ({@link HeldRequestBody#start}). */
    void readHeldBody(HttpRouteRequest context, int maxBytes, RequestBodyListener listener) {
        heldBody = context.filters() != filters ? heldBody
                : HeldRequestBody.start(this, context.request(), pipelined, maxBytes, listener);
    }

    /** After a filter went on or answered later than the request's read: what waited is handled. */
    void afterFilters() {
        if (current != null) {
            current.flushUpstream();
        }
        drainPipelined();
    }

    /** Whether this serves one HTTP/2 stream. */
    boolean isHttp2Stream() {
        return http2Stream;
    }

    /** Whether the current request is gRPC (only recognised on HTTP/2). */
    boolean isGrpc() {
        return grpc;
    }

    /** Refuses a request whose framing cannot be trusted: answer, then close. */
    private void reject(ExchangeRecord record, Rejection rejection) {
        state = DownstreamState.CLOSING;
        record.flag(ResponseFlag.DOWNSTREAM_PROTOCOL_ERROR);
        proxy.listenerMetrics().error(rejection.reason());
        respondLocally(record, HttpVersion.HTTP_1_1, false,
                error(HttpResponseStatus.valueOf(rejection.status()), rejection.reason()));
    }

    /**
     * Flushes what the current exchange wrote downstream: HTTP/1 at once; an HTTP/2 stream through
     * its connection's flush, which runs once for all the streams that finished in this pass.
     */
    void flushResponse() {
        carrier.flush();
    }

    /** Writes an error response the gateway made itself and closes afterwards when asked to. */
    private void respondLocally(ExchangeRecord record, HttpVersion version, boolean keepAlive,
            FullHttpResponse response) {
        writeLocal(record, version, keepAlive, response, true);
    }

    /**
     * Writes a response the gateway made itself, an error or the route's own answer, and closes
     * afterwards when asked to.
     */
    void writeLocal(ExchangeRecord record, HttpVersion version, boolean keepAlive, FullHttpResponse response,
            boolean error) {
        if (filters != null) {
            filters.response(new HttpFilterResponse(response, true, error));
        }
        record.sent(response.content().readableBytes());
        record.responseHeaders(response.headers());
        record.finish(response.status().code());
        boolean close = !keepAlive || state == DownstreamState.CLOSING || lastResponse;
        if (!http2Stream) {
            HopByHopHeaders.setKeepAlive(response, version, !close);
        }
        ChannelFuture written = carrier.write(response, close);
        carrier.flush();
        if (close) {
            state = DownstreamState.CLOSING;
            carrier.endAfter(written);
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
            carrier.reset(error);
        } else {
            state = DownstreamState.CLOSING;
        }
        exchangeDone(exchange, null);
    }

    /**
     * Called by an exchange that answers with a gateway error before any of its response went
     * out: counted by {@code reason}; an HTTP/1 connection stays open for the next request when
     * {@code keepAlive} (the client wants it and its request was read whole), so that an upstream
     * failure costs the client one answer, never its connection.
     */
    void answerFailure(HttpExchange exchange, FullHttpResponse response, String reason, HttpVersion version,
            boolean keepAlive) {
        proxy.listenerMetrics().error(reason);
        if (filters != null) {
            filters.response(new HttpFilterResponse(response, true, true));
        }
        if (http2Stream) {
            exchangeDone(exchange, writeAndFlush(response));
            return;
        }
        boolean keep = keepAlive && state != DownstreamState.CLOSING && !lastResponse;
        HopByHopHeaders.setKeepAlive(response, version, keep);
        ChannelFuture written = writeAndFlush(response);
        exchangeDone(exchange, keep ? null : written);
    }

    /**
     * Called by an exchange that refused the request body mid-stream ({@code reason}: too large,
     * malformed): the connection closes once the exchange has answered or aborted. The reason is
     * counted here when no answer will carry it ({@link #answerFailure} counts the ones that do).
     */
    void requestBodyRejected(String reason, boolean answering) {
        state = DownstreamState.CLOSING;
        if (!answering) {
            proxy.listenerMetrics().error(reason);
        }
    }

    /**
     * Called by the current exchange when its response is fully written (or it gave up). Moves
     * on to the next pipelined request, or ends the connection (an HTTP/2 stream: the stream)
     * after {@code endAfter} when the exchange says it cannot carry another request.
     *
     * @param endAfter the exchange's last write, after which to end; null to carry on
     */
    void exchangeDone(DownstreamExchange exchange, ChannelFuture endAfter) {
        if (exchange != current) {
            return;
        }
        current = null;
        if (endAfter != null || state == DownstreamState.CLOSING || lastResponse) {
            state = DownstreamState.CLOSING;
            carrier.endAfter(endAfter);
            releasePipelined();
            resume(PAUSE_CONNECTING | PAUSE_UPSTREAM_FULL);
            return;
        }
        // The state moves first: an HTTP/2 stream channel delivers buffered input as soon as reading resumes.
        state = state == DownstreamState.FORWARDING_BODY ? DownstreamState.DISCARDING_BODY : DownstreamState.IDLE;
        resume(PAUSE_CONNECTING | PAUSE_UPSTREAM_FULL);
        drainPipelined();
    }

    private void drainPipelined() {
        if (draining) {
            return;
        }
        draining = true;
        try {
            while (state != DownstreamState.AWAITING_RESPONSE && state != DownstreamState.FILTERING
                    && state != DownstreamState.CLOSING && hasPipelined()) {
                handle(pipelined.pollFirst());
            }
            if (current != null) {
                current.flushUpstream();
            }
        } finally {
            draining = false;
        }
        if (!hasPipelined()) {
            resume(PAUSE_PIPELINED);
        }
    }

    private void releasePipelined() {
        if (pipelined != null) {
            pipelined.releaseAll();
        }
    }

    void pause(int reason) {
        if (pauses == 0) {
            carrier.setReading(false);
        }
        pauses |= reason;
    }

    void resume(int reason) {
        if (pauses == 0) {
            return;
        }
        pauses &= ~reason;
        if (pauses == 0) {
            carrier.setReading(true);
        }
    }
}
