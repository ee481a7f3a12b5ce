package io.tollgate.benchmarks.filter;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.FilterResponse;
import io.tollgate.core.filter.MirrorListener;
import io.tollgate.core.filter.MirrorOutcome;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.server.http.HttpFilterHeaders;

/**
 * One HTTP request and its response as a filter sees them, over Netty's writable headers as the
 * gateway has them, without a socket: what a built-in filter costs per request is its callbacks
 * on these.
 * A copy asked for ({@link #mirror}) is counted, not sent: sending it is an upstream request.
 */
final class HttpBenchContext implements StreamFilterContext, FilterResponse {

    private final String method;
    private final HttpFilterHeaders request;
    private final HttpHeaders responseHeaders = new DefaultHttpHeaders();
    private final HttpFilterHeaders response = new HttpFilterHeaders(responseHeaders);
    private Object state;
    int mirrors;

    HttpBenchContext(String method, HttpHeaders requestHeaders) {
        this.method = method;
        this.request = new HttpFilterHeaders(requestHeaders);
        responseHeaders.set("content-type", "application/json").set("content-length", "512")
                .set("server", "upstream").set("date", "Tue, 24 Nov 2026 15:00:00 GMT");
    }

    @Override
    public String protocol() {
        return "HTTP/1.1";
    }

    @Override
    public boolean rpc() {
        return false;
    }

    @Override
    public boolean grpc() {
        return false;
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public String service() {
        return null;
    }

    @Override
    public RouteRequest request() {
        return null;
    }

    @Override
    public FilterHeaders requestHeaders() {
        return request;
    }

    @Override
    public String clientAddress() {
        return "10.1.2.3";
    }

    @Override
    public String sni() {
        return null;
    }

    @Override
    public String peerIdentity() {
        return null;
    }

    @Override
    public String listenerName() {
        return "web";
    }

    @Override
    public String routeName() {
        return "catalog";
    }

    @Override
    public String requestId() {
        return request.get("x-request-id");
    }

    @Override
    public String upstreamHost() {
        return "10.0.0.7:8080";
    }

    @Override
    public EventExecutor executor() {
        return ImmediateEventExecutor.INSTANCE;
    }

    @Override
    public void flag(ResponseFlag flag) {
    }

    @Override
    public void respond(int httpStatus, String reason) {
    }

    @Override
    public void respond(int httpStatus, int grpcStatus, String reason) {
    }

    @Override
    public void answer(int httpStatus) {
    }

    @Override
    public void trace(String traceId, String spanId) {
    }

    @Override
    public void resume() {
    }

    @Override
    public void mirror(String cluster, long maxBodyBytes, MirrorListener listener) {
        mirrors++;
        listener.mirrored(MirrorOutcome.SENT);
    }

    @Override
    public Object state(StreamFilter filter) {
        return state;
    }

    @Override
    public void state(StreamFilter filter, Object value) {
        state = value;
    }

    @Override
    public int status() {
        return 200;
    }

    @Override
    public boolean local() {
        return false;
    }

    @Override
    public FilterHeaders headers() {
        return response;
    }
}
