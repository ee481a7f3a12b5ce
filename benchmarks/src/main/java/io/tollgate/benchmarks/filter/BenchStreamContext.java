package io.tollgate.benchmarks.filter;

import io.netty.util.concurrent.EventExecutor;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.MirrorListener;
import io.tollgate.core.filter.MirrorOutcome;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.core.route.RouteRequest;

/**
 * A request as a stream filter sees it, with nothing behind it, so that a benchmark measures the
 * filter alone: an HTTP/1.1 request on listener {@code bench} with every other value absent, whose
 * answers, copies and trace ids are counted or kept instead of acted on. A benchmark overrides what
 * its filters read.
 */
public class BenchStreamContext implements StreamFilterContext {

    private Object state;
    /** The answers filters gave ({@code respond} and {@code answer}). */
    public int answers;
    /** The copies filters asked for; each is reported sent. */
    public int mirrors;
    /** The ids the last {@code trace} call gave. */
    public String traceId;
    public String spanId;

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
        return null;
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
        throw new UnsupportedOperationException("no event loop in a benchmark");
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
        answers++;
    }

    @Override
    public void respond(int httpStatus, int grpcStatus, String reason) {
        answers++;
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
}
