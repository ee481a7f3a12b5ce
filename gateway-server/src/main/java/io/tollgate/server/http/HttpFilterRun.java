package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpRequest;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.router.route.Route;
import io.tollgate.server.Snapshot;
import io.tollgate.server.exchange.ExchangeRecord;
import io.tollgate.server.filter.FilterRun;
import io.tollgate.server.filter.StreamFilterChain;

/**
 * An HTTP request (HTTP/1.x, or one HTTP/2 stream, gRPC included) passing its stream filters:
 * what filters read comes from the request head and the connection, an answer is the
 * downstream's local response, and going on is the route's action. Holds the request head until
 * the chain let it through or answered it.
 */
final class HttpFilterRun extends FilterRun {

    private final HttpDownstream downstream;
    private final HttpRequest request;
    private final HttpRouteRequest view;
    private final Snapshot snapshot;
    private final PeerAddress peer;
    private final boolean keepAlive;
    private final boolean complete;
    private final boolean grpc;
    private final boolean http2;

    HttpFilterRun(StreamFilterChain chain, HttpDownstream downstream, HttpRequest request, HttpRouteRequest view,
            ExchangeRecord record, Route route, Snapshot snapshot, PeerAddress peer, String listenerName,
            boolean keepAlive, boolean complete) {
        super(chain, view, record, route, downstream.deadlines(), downstream.eventLoop(), listenerName);
        this.downstream = downstream;
        this.request = request;
        this.view = view;
        this.snapshot = snapshot;
        this.peer = peer;
        this.keepAlive = keepAlive;
        this.complete = complete;
        this.grpc = downstream.isGrpc();
        this.http2 = downstream.isHttp2Stream();
    }

    @Override
    protected void proceed() {
        downstream.act(this, request, view, record, route, snapshot, keepAlive, complete);
    }

    @Override
    protected void reply(int httpStatus, int grpcStatus, String reason) {
        downstream.filterAnswered(this, request, record, keepAlive, complete, httpStatus, grpcStatus, reason);
    }

    @Override
    protected void afterAsync() {
        downstream.afterFilters();
    }

    /** The request head, for the downstream to let go of when the request ends while held. */
    HttpRequest head() {
        return request;
    }

    @Override
    public String protocol() {
        return http2 ? "HTTP/2.0" : request.protocolVersion().text();
    }

    @Override
    public boolean rpc() {
        return false;
    }

    @Override
    public boolean grpc() {
        return grpc;
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
    protected FilterHeaders newRequestHeaders() {
        return new HttpFilterHeaders(request.headers());
    }

    @Override
    public String sni() {
        return peer.serverName();
    }

    @Override
    public String peerIdentity() {
        return peer.identity();
    }

    @Override
    public String requestId() {
        String id = super.requestId();
        return id != null ? id : request.headers().get(ForwardedRequest.X_REQUEST_ID);
    }
}
