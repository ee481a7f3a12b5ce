package io.tollgate.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.RequestBodyListener;
import io.tollgate.protocols.http2.Grpc;
import io.tollgate.server.dispatch.RequestContext;
import io.tollgate.server.filter.FilterRun;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An HTTP request (HTTP/1.x, or one HTTP/2 stream) on its way through the dispatcher: the head,
 * whether the client keeps its connection and whether the head came with the whole body, and the
 * routing view of the head: authority from the Host header (or the absolute-form target), lower
 * case and without port; path and query split from the target.
 */
final class HttpRouteRequest extends RequestContext {

    private static final String PROTOCOL_HTTP2 = "HTTP/2.0";

    private final HttpDownstream downstream;
    private final HttpRequest request;
    private final boolean keepAlive;
    private final boolean complete;
    /** The version the client spoke: forwarding rewrites the request's own to HTTP/1.1. */
    private final HttpVersion version;
    private final String hostHeader;
    private final String authority;
    private final String path;
    private final String query;
    /** The copies started that still wait for the rest of the body; null when none. */
    private List<HttpShadowCopy> shadows;

    /**
     * @param downstream where the request came in, which its filters go on with or answer through
     * @param clientAddress the client's IP address as text, or null when unknown
     * @param keepAlive whether the client keeps its connection after this request
     * @param complete whether the head came with the whole body
     */
    HttpRouteRequest(HttpDownstream downstream, HttpRequest request, String clientAddress, boolean keepAlive,
            boolean complete) {
        super(clientAddress);
        this.downstream = downstream;
        this.request = request;
        this.keepAlive = keepAlive;
        this.complete = complete;
        this.version = request.protocolVersion();
        String target = request.uri();
        String host = request.headers().get(HttpHeaderNames.HOST);
        int pathStart = 0;
        if (!target.startsWith("/") && target.contains("://")) {
            int authorityStart = target.indexOf("://") + 3;
            int authorityEnd = target.indexOf('/', authorityStart);
            int queryStart = target.indexOf('?', authorityStart);
            if (authorityEnd < 0 || (queryStart >= 0 && queryStart < authorityEnd)) {
                authorityEnd = queryStart >= 0 ? queryStart : target.length();
            }
            host = target.substring(authorityStart, authorityEnd);
            pathStart = authorityEnd;
        }
        this.hostHeader = host;
        this.authority = host == null ? null : stripPort(host).toLowerCase(Locale.ROOT);
        int q = target.indexOf('?', pathStart);
        String rawPath = q < 0 ? target.substring(pathStart) : target.substring(pathStart, q);
        this.path = rawPath.isEmpty() ? "/" : rawPath;
        this.query = q < 0 ? null : target.substring(q + 1);
    }

    private static String stripPort(String host) {
        int colon = host.lastIndexOf(':');
        if (colon < 0 || host.indexOf(']') > colon) {
            return host;
        }
        return host.substring(0, colon);
    }

    /** The request head; the downstream owns it until it goes upstream or is answered. */
    HttpRequest request() {
        return request;
    }

    /** Whether the client keeps its connection after this request. */
    boolean keepAlive() {
        return keepAlive;
    }

    /** Whether the head came with the whole body. */
    boolean complete() {
        return complete;
    }

    /** The HTTP version the client spoke, as it came in (forwarding rewrites the request's own). */
    HttpVersion version() {
        return version;
    }

    /** The request's timeout: the route's, or for gRPC its {@code grpc-timeout} up to the route's most. */
    long timeoutNanos(boolean grpc) {
        long timeoutNanos = route().timeout().toNanos();
        if (grpc) {
            long grpcTimeout = Grpc.timeoutNanos(request.headers().get(Grpc.TIMEOUT));
            timeoutNanos = grpcTimeout >= 0 ? Math.min(grpcTimeout, route().maxGrpcTimeout().toNanos()) : timeoutNanos;
        }
        return timeoutNanos;
    }

    /** The Host as the client sent it (with port), or from the absolute-form target. */
    String hostHeader() {
        return hostHeader;
    }

    @Override
    public String authority() {
        return authority;
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String query() {
        return query;
    }

    @Override
    public String header(String name) {
        return request.headers().get(name);
    }

    @Override
    public InetSocketAddress originalDestination() {
        return downstream.peer().originalDestination();
    }

    /** The origin-form target to send upstream for a (possibly rewritten) path. */
    String originForm(String newPath) {
        return query == null ? newPath : newPath + "?" + query;
    }

    /**
     * The request goes upstream now with its head {@code prepared}: the copies filters asked for
     * start, before the request itself is sent, so that they copy what it is.
     *
     * @param originForm the request's target as sent upstream, in origin form
     */
    void forwarding(HttpRequest prepared, String originForm) {
        List<FilterRun.MirrorRequest> mirrors = filters().takeMirrors();
        if (mirrors == null) {
            return;
        }
        for (FilterRun.MirrorRequest mirror : mirrors) {
            HttpShadowCopy shadow = downstream.shadow(mirror.cluster(), mirror.maxBodyBytes(), mirror.listener(),
                    snapshot(), route(), prepared, this, originForm);
            if (shadow != null) {
                if (shadows == null) {
                    shadows = new ArrayList<>(1);
                }
                shadows.add(shadow);
            }
        }
    }

    /** A part of the forwarded request's body, not owned: the copies waiting for it take theirs. */
    void shadowBody(ByteBuf content, boolean last) {
        if (shadows == null) {
            return;
        }
        for (int i = 0; i < shadows.size(); i++) {
            shadows.get(i).body(content, last);
        }
        if (last) {
            shadows = null;
        }
    }

    /** Copies whose request ended before its body did are not sent. */
    @Override
    public void filtersEnded() {
        if (shadows != null) {
            for (HttpShadowCopy shadow : shadows) {
                shadow.requestEnded();
            }
            shadows = null;
        }
    }

    @Override
    public void filtersPassed() {
        downstream.passed(this);
    }

    @Override
    public void readBody(int maxBytes, RequestBodyListener listener) {
        downstream.readHeldBody(this, maxBytes, listener);
    }

    @Override
    public void filtersAnswered(int httpStatus, int grpcStatus, String reason) {
        downstream.filterAnswered(this, httpStatus, grpcStatus, reason);
    }

    @Override
    public void afterFiltersAsync() {
        downstream.afterFilters();
    }

    @Override
    public String protocol() {
        return downstream.isHttp2Stream() ? PROTOCOL_HTTP2 : request.protocolVersion().text();
    }

    @Override
    public boolean rpc() {
        return false;
    }

    @Override
    public boolean grpc() {
        return downstream.isGrpc();
    }

    @Override
    public String method() {
        return request.method().name();
    }

    @Override
    public String service() {
        return null;
    }

    @Override
    public FilterHeaders newFilterHeaders() {
        return new HttpFilterHeaders(request.headers());
    }

    @Override
    public String sni() {
        return downstream.peer().serverName();
    }

    @Override
    public String peerIdentity() {
        return downstream.peer().identity();
    }

    @Override
    public String protocolRequestId() {
        return request.headers().get(ForwardedRequest.X_REQUEST_ID);
    }
}
