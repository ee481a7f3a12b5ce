package io.tollgate.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.filter.MirrorListener;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.protocols.http2.Grpc;
import io.tollgate.router.route.Route;
import io.tollgate.server.exchange.Deadlines;
import io.tollgate.server.shadow.Shadow;
import io.tollgate.server.shadow.ShadowTarget;
import io.tollgate.server.snapshot.Snapshot;
import io.tollgate.server.upstream.http.UpstreamConnection;
import io.tollgate.server.upstream.http.UpstreamPool;
import io.tollgate.server.upstream.http.UpstreamPools;

/**
 * HTTP's part of a {@link Shadow}: the copy of one forwarded HTTP request on its way to a host of
 * another cluster, an attempt of its own on the host's pool of the event loop. Its own head (the
 * forwarded one, host suffixed {@code -shadow}), the request's body kept as retained slices up to a
 * limit, and a connection once the body is whole; its answer is read and dropped. It never touches
 * the request it copies: past the limit it gives up ({@link Shadow#skipped}); it is sent on a later
 * turn of the loop, after the request itself went out; the route's timeout bounds it, and it holds
 * a request of the shadow cluster's circuit breakers meanwhile. Confined to the request's event loop.
 */
final class HttpShadowCopy extends PooledAttempt {

    private static final String SHADOW_SUFFIX = "-shadow";

    private final Shadow shadow;
    private final EventLoop loop;
    private final HttpRequest head;
    private final long maxBodyBytes;
    private CompositeByteBuf body;
    private int status;
    private boolean bodyWhole;

    private HttpShadowCopy(Shadow shadow, UpstreamPool pool, EventLoop loop, HttpRequest head, long maxBodyBytes) {
        super(pool, shadow.target().breakers(), false);
        this.shadow = shadow;
        this.loop = loop;
        this.head = head;
        this.maxBodyBytes = maxBodyBytes;
    }

    /**
     * Starts a copy of a request whose head was just prepared to go upstream, to a host of
     * {@code clusterName} chosen by its load balancer.
     *
     * @param prepared the forwarded head, read now and not kept; its content, when it has any, is
     *     the whole body
     * @param view the request as routed, to choose the host with
     * @param originForm the request's target as sent upstream, in origin form
     * @return the shadow while it waits for the rest of the body, else null (sent or ended)
     */
    static HttpShadowCopy start(String clusterName, long maxBodyBytes, MirrorListener listener, Snapshot snapshot,
            GatewayMetrics gatewayMetrics, UpstreamPools pools, Deadlines deadlines, EventLoop loop, Route route,
            HttpRequest prepared, HttpRouteRequest view, String originForm) {
        Shadow shadow = Shadow.start(clusterName, snapshot, gatewayMetrics, route, view, listener);
        if (shadow == null) {
            return null;
        }
        ShadowTarget target = shadow.target();
        boolean http2 = ClusterConfig.H2.equals(target.cluster().config().protocol());
        HttpShadowCopy copy = new HttpShadowCopy(shadow, pools.pool(target.cluster(), target.host()), loop,
                head(prepared, originForm, http2), maxBodyBytes);
        copy.startPerTryTimeout(deadlines, target.timeoutNanos());
        if (prepared instanceof LastHttpContent) {
            copy.body(((LastHttpContent) prepared).content(), true);
        }
        return copy.ended() || copy.bodyWhole ? null : copy;
    }

    /** The shadow's own head: the forwarded one, without framing headers, its host suffixed. */
    private static HttpRequest head(HttpRequest prepared, String originForm, boolean http2) {
        HttpHeaders headers = prepared.headers().copy();
        headers.remove(HttpHeaderNames.TRANSFER_ENCODING);
        headers.remove(HttpHeaderNames.CONTENT_LENGTH);
        headers.remove(HttpHeaderNames.EXPECT);
        headers.remove(HttpHeaderNames.TE);
        if (http2 && Grpc.isGrpc(headers)) {
            headers.set(HttpHeaderNames.TE, HttpHeaderValues.TRAILERS);
        }
        String host = headers.get(HttpHeaderNames.HOST);
        String uri = originForm;
        if (host != null) {
            host = shadowHost(host);
            headers.set(HttpHeaderNames.HOST, host);
            if (http2) {
                uri = "http://" + host + originForm;
            }
        }
        return new DefaultHttpRequest(HttpVersion.HTTP_1_1, prepared.method(), uri, headers);
    }

    /** {@code host} with {@value #SHADOW_SUFFIX} before its port, as Envoy names a shadow's host. */
    static String shadowHost(String host) {
        int colon = host.lastIndexOf(':');
        if (colon < 0 || colon < host.lastIndexOf(']')) {
            return host + SHADOW_SUFFIX;
        }
        return host.substring(0, colon) + SHADOW_SUFFIX + host.substring(colon);
    }

    /** A part of the request's body, not owned: kept as a retained slice while within the limit. */
    void body(ByteBuf content, boolean last) {
        if (ended() || bodyWhole) {
            return;
        }
        int bytes = content.readableBytes();
        if (bytes > 0) {
            long held = body == null ? 0 : body.readableBytes();
            if (held + bytes > maxBodyBytes) {
                if (finish(false)) {
                    shadow.skipped();
                }
                return;
            }
            if (body == null) {
                body = content.alloc().compositeBuffer();
            }
            body.addComponent(true, content.retainedSlice());
        }
        if (last) {
            bodyWhole = true;
            loop.execute(this::send);
        }
    }

    /** The request ended: a copy whose body is not whole yet will never be. */
    void requestEnded() {
        if (!bodyWhole && finish(false)) {
            shadow.skipped();
        }
    }

    private void send() {
        if (!ended()) {
            pool.acquire(this);
        }
    }

    @Override
    protected void connected(UpstreamConnection acquired) {
        ByteBuf content = body == null ? Unpooled.EMPTY_BUFFER : body;
        body = null;
        DefaultFullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, head.method(), head.uri(),
                content, head.headers(), EmptyHttpHeaders.INSTANCE);
        request.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
        acquired.write(request);
        acquired.flush();
    }

    @Override
    public void failed(UpstreamPool.Failure failure, Throwable cause) {
        if (finish(false)) {
            shadow.failed();
        }
    }

    @Override
    public void onResponse(HttpObject msg) {
        try {
            if (ended()) {
                return;
            }
            if (msg instanceof HttpResponse) {
                status = ((HttpResponse) msg).status().code();
            }
            if (msg instanceof LastHttpContent && status >= 200 && finish(true)) {
                shadow.answered(status);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void onResponseBatchComplete() {
    }

    @Override
    public void onUpstreamClosed() {
        upstreamGone();
    }

    @Override
    public void onUpstreamCancelled() {
        upstreamGone();
    }

    @Override
    public void onUpstreamRefused() {
        upstreamGone();
    }

    private void upstreamGone() {
        if (letGo() && finish(false)) {
            shadow.reset();
        }
    }

    @Override
    public void onUpstreamWritabilityChanged(boolean writable) {
    }

    /** The route's timeout passed before the shadow's answer. */
    @Override
    protected void expired() {
        if (finish(false)) {
            shadow.timedOut();
        }
    }

    /**
     * Ends the copy's attempt ({@code reusable}: its connection carried a whole request and
     * response) and lets go of the body held.
     *
     * @return false when it had ended already
     */
    private boolean finish(boolean reusable) {
        if (!endUse(reusable)) {
            return false;
        }
        if (body != null) {
            body.release();
            body = null;
        }
        return true;
    }
}
