package io.tollgate.benchmarks.trace;

import io.netty.util.concurrent.EventExecutor;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.core.route.RouteRequest;

/**
 * The least of a request a stream filter needs for the benchmark: its headers, and a place for the
 * trace and span ids; everything else is absent.
 */
final class BenchContext implements StreamFilterContext {

    private final FilterHeaders headers;
    private final boolean rpc;
    String traceId;
    String spanId;

    BenchContext(FilterHeaders headers, boolean rpc) {
        this.headers = headers;
        this.rpc = rpc;
    }

    @Override
    public String protocol() {
        return rpc ? "BOLT/1" : "HTTP/1.1";
    }

    @Override
    public boolean rpc() {
        return rpc;
    }

    @Override
    public boolean grpc() {
        return false;
    }

    @Override
    public String method() {
        return null;
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
        return headers;
    }

    @Override
    public String clientAddress() {
        return null;
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
        return "bench";
    }

    @Override
    public String routeName() {
        return null;
    }

    @Override
    public String requestId() {
        return null;
    }

    @Override
    public String upstreamHost() {
        return null;
    }

    @Override
    public EventExecutor executor() {
        return null;
    }

    @Override
    public void flag(ResponseFlag flag) {
    }

    @Override
    public void trace(String traceId, String spanId) {
        this.traceId = traceId;
        this.spanId = spanId;
    }

    @Override
    public void respond(int httpStatus, String reason) {
    }

    @Override
    public void respond(int httpStatus, int grpcStatus, String reason) {
    }

    @Override
    public void resume() {
    }

    @Override
    public Object state(StreamFilter filter) {
        return null;
    }

    @Override
    public void state(StreamFilter filter, Object value) {
    }
}
