package io.tollgate.server.filter;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.EventExecutor;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.FilterResponse;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.core.metrics.WarnLimiter;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.route.Route;
import io.tollgate.server.exchange.Deadline;
import io.tollgate.server.exchange.Deadlines;
import io.tollgate.server.exchange.ExchangeRecord;
import io.tollgate.server.exchange.FinishListener;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request's walk through its stream filter chain, the same for every protocol: the filters'
 * request callbacks in order, a stop and a later resume, an answer by a filter, then the response
 * callbacks in reverse order and the completion of every filter that saw the request. A protocol
 * says how the request goes on once the chain let it through ({@link #proceed()}) and how it is
 * answered ({@link #reply}); the rest of {@link StreamFilterContext} it fills from its request.
 *
 * <p>While a filter holds the request, the run is a {@link Deadline} of its event loop: past the
 * route's timeout (15 s without a route) the request is answered 504 {@code filter_timeout}. A
 * filter that throws answers its request 500 {@code filter_error}, logged (rate-limited) and
 * counted; other requests carry on. Confined to the request's event loop.
 */
public abstract class FilterRun extends Deadline implements StreamFilterContext, FinishListener {

    private static final Logger log = LoggerFactory.getLogger(FilterRun.class);
    private static final WarnLimiter FAILURE_WARNINGS = new WarnLimiter(TimeUnit.SECONDS.toNanos(10));
    private static final long NO_ROUTE_HOLD_NANOS = TimeUnit.SECONDS.toNanos(15);

    protected final ExchangeRecord record;
    protected final Route route;
    private final RouteRequest request;
    private final StreamFilterChain chain;
    private final Deadlines deadlines;
    private final EventExecutor executor;
    private final String listenerName;
    private Object[] states;
    private FilterHeaders requestHeaders;
    /** The filters that saw the request: the next to run is at this index. */
    private int seen;
    private boolean stopped;
    private boolean answered;
    private boolean completed;

    protected FilterRun(StreamFilterChain chain, RouteRequest request, ExchangeRecord record, Route route,
            Deadlines deadlines, EventExecutor executor, String listenerName) {
        this.chain = chain;
        this.request = request;
        this.record = record;
        this.route = route;
        this.deadlines = deadlines;
        this.executor = executor;
        this.listenerName = listenerName;
        record.whenFinished(this);
    }

    /**
     * Runs the chain's request callbacks from the first filter.
     *
     * @return true when every filter let the request through now: the caller goes on with it;
     *     false when a filter answered it or holds it (then {@link #proceed()} comes later, or not)
     */
    public final boolean start() {
        return runRequestFilters();
    }

    private boolean runRequestFilters() {
        while (seen < chain.size()) {
            StreamFilter filter = chain.get(seen++);
            FilterStatus status;
            try {
                status = filter.onRequest(this);
            } catch (RuntimeException e) {
                failed(filter, e);
                return false;
            }
            if (answered) {
                return false;
            }
            if (status == FilterStatus.STOP) {
                stopped = true;
                long holdNanos = route == null ? NO_ROUTE_HOLD_NANOS : route.timeout().toNanos();
                deadlines.start(this, holdNanos > 0 ? holdNanos : NO_ROUTE_HOLD_NANOS);
                return false;
            }
        }
        return true;
    }

    @Override
    public final void resume() {
        if (!stopped || answered || completed) {
            return;
        }
        stopped = false;
        deadlines.cancel(this);
        if (runRequestFilters()) {
            proceed();
        }
        afterAsync();
    }

    @Override
    public final void respond(int httpStatus, String reason) {
        respond(httpStatus, -1, reason);
    }

    @Override
    public final void respond(int httpStatus, int grpcStatus, String reason) {
        if (answered || completed) {
            return;
        }
        answered = true;
        boolean wasStopped = stopped;
        stopped = false;
        deadlines.cancel(this);
        reply(httpStatus, grpcStatus, reason);
        if (wasStopped) {
            afterAsync();
        }
    }

    /** Whether a filter holds the request now. */
    public final boolean holding() {
        return stopped;
    }

    /** A filter held the request past its timeout. */
    @Override
    protected final void expired() {
        if (!stopped || answered || completed) {
            return;
        }
        respond(504, "filter_timeout");
    }

    /**
     * The client went away while a filter held its request: the request ends unanswered, recorded
     * as terminated downstream, and its filters are told. The protocol lets go of what it holds.
     */
    public final void abandon() {
        stopped = false;
        deadlines.cancel(this);
        record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        record.finish(0);
    }

    /** Passes a part of the request body to the filters that saw the request, in order. */
    public final void requestBody(ByteBuf content, boolean last) {
        for (int i = 0; i < seen; i++) {
            chain.get(i).onRequestBody(this, content, last);
        }
    }

    /** Passes the request's trailers to the filters that saw the request, in order. */
    public final void requestTrailers(FilterHeaders trailers) {
        for (int i = 0; i < seen; i++) {
            chain.get(i).onRequestTrailers(this, trailers);
        }
    }

    /** Passes the response's trailers to the filters that saw the request, last first. */
    public final void responseTrailers(FilterHeaders trailers) {
        for (int i = seen - 1; i >= 0; i--) {
            chain.get(i).onResponseTrailers(this, trailers);
        }
    }

    /** Passes the response head to the filters that saw the request, last first. */
    public final void response(FilterResponse response) {
        for (int i = seen - 1; i >= 0; i--) {
            chain.get(i).onResponse(this, response);
        }
    }

    /** Passes a part of the response body to the filters that saw the request, last first. */
    public final void responseBody(ByteBuf content, boolean last) {
        for (int i = seen - 1; i >= 0; i--) {
            chain.get(i).onResponseBody(this, content, last);
        }
    }

    /** The request ended with {@code status}: every filter that saw it is told, once. Called by the record. */
    @Override
    public final void finished(int status) {
        if (completed) {
            return;
        }
        completed = true;
        stopped = false;
        deadlines.cancel(this);
        for (int i = seen - 1; i >= 0; i--) {
            try {
                chain.get(i).onComplete(this, status);
            } catch (RuntimeException e) {
                warn(chain.get(i), e);
            }
        }
    }

    private void failed(StreamFilter filter, RuntimeException e) {
        warn(filter, e);
        respond(500, "filter_error");
    }

    private void warn(StreamFilter filter, RuntimeException e) {
        if (FAILURE_WARNINGS.tryAcquire()) {
            log.warn("listener {}: stream filter {} failed on a request", listenerName,
                    filter.getClass().getName(), e);
        }
    }

    /** The chain let the request through: the protocol goes on with it (the route's action). */
    protected abstract void proceed();

    /** A filter answers the request: the protocol writes the answer in its own form and records it. */
    protected abstract void reply(int httpStatus, int grpcStatus, String reason);

    /** Called after a resume or an answer that came later than the request's read, to flush what they wrote. */
    protected abstract void afterAsync();

    /** The request's headers as filters see them, made when a filter first asks. */
    protected abstract FilterHeaders newRequestHeaders();

    @Override
    public final RouteRequest request() {
        return request;
    }

    @Override
    public final FilterHeaders requestHeaders() {
        if (requestHeaders == null) {
            requestHeaders = newRequestHeaders();
        }
        return requestHeaders;
    }

    @Override
    public final String clientAddress() {
        return request.clientAddress();
    }

    @Override
    public final EventExecutor executor() {
        return executor;
    }

    @Override
    public final String listenerName() {
        return listenerName;
    }

    @Override
    public final String routeName() {
        return route == null ? null : route.name();
    }

    @Override
    public final void flag(ResponseFlag flag) {
        record.flag(flag);
    }

    @Override
    public String requestId() {
        return record.requestId();
    }

    @Override
    public final String upstreamHost() {
        return record.upstreamHost();
    }

    @Override
    public final Object state(StreamFilter filter) {
        if (states == null) {
            return null;
        }
        int index = indexOf(filter);
        return index < 0 ? null : states[index];
    }

    @Override
    public final void state(StreamFilter filter, Object value) {
        int index = indexOf(filter);
        if (index < 0) {
            throw new IllegalArgumentException(filter + " is not in this request's chain");
        }
        if (states == null) {
            states = new Object[chain.size()];
        }
        states[index] = value;
    }

    private int indexOf(StreamFilter filter) {
        for (int i = 0; i < chain.size(); i++) {
            if (chain.get(i) == filter) {
                return i;
            }
        }
        return -1;
    }
}
