package io.tollgate.benchmarks.filter;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.FilterResponse;
import io.tollgate.server.http.HttpFilterHeaders;

/**
 * One HTTP request and its response as a filter sees them, over Netty's writable headers as the
 * gateway has them, without a socket: what a built-in filter costs per request is its callbacks
 * on these.
 * A copy asked for is counted, not sent: sending it is an upstream request.
 */
final class HttpBenchContext extends BenchStreamContext implements FilterResponse {

    private final String method;
    private final HttpFilterHeaders request;
    private final HttpHeaders responseHeaders = new DefaultHttpHeaders();
    private final HttpFilterHeaders response = new HttpFilterHeaders(responseHeaders);

    HttpBenchContext(String method, HttpHeaders requestHeaders) {
        this.method = method;
        this.request = new HttpFilterHeaders(requestHeaders);
        responseHeaders.set("content-type", "application/json").set("content-length", "512")
                .set("server", "upstream").set("date", "Tue, 24 Nov 2026 15:00:00 GMT");
    }

    @Override
    public String method() {
        return method;
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
