package io.tollgate.server.filter;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.EventExecutor;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.AttemptListener;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.FilterResponse;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.MirrorListener;
import io.tollgate.core.filter.MirrorOutcome;
import io.tollgate.core.filter.RequestBodyListener;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.core.metrics.WarnLimiter;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.route.Route;
import io.tollgate.server.exchange.Deadline;
import io.tollgate.server.exchange.Deadlines;
import io.tollgate.server.exchange.ExchangeRecord;
import io.tollgate.server.exchange.FinishListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request's walk through its stream filter chain, the same for every protocol: the filters'
 * request callbacks in order, a stop and a later resume, an answer by a filter, then the response
 * callbacks in reverse order and the completion of every filter that saw the request. The
 * request's protocol, through its {@link FilteredRequest}, says how the request goes on once the
 * chain let it through and how it is answered, and fills what filters read that only it knows.
 *
 * <p>While a filter holds the request, the run is a {@link Deadline} of its event loop: past the
 * route's timeout (15 s without a route) the request is answered 504 {@code filter_timeout}. A
 * filter that throws answers its request 500 {@code filter_error}, logged (rate-limited) and
 * counted; other requests carry on. Confined to the request's event loop.
 */
public final class FilterRun extends Deadline implements StreamFilterContext, FinishListener {

    private static final Logger log = LoggerFactory.getLogger(FilterRun.class);
    private static final WarnLimiter FAILURE_WARNINGS = new WarnLimiter(TimeUnit.SECONDS.toNanos(10));
    private static final long NO_ROUTE_HOLD_NANOS = TimeUnit.SECONDS.toNanos(15);

    private final ExchangeRecord record;
    private final Route route;
    private final FilteredRequest request;
    private final StreamFilterChain chain;
    private final Deadlines deadlines;
    private final EventExecutor executor;
    private final String listenerName;
    private Object[] states;
    private FilterHeaders requestHeaders;
    /** The copies filters asked for, until the protocol takes them; null when none. */
    private List<MirrorRequest> mirrors;
    /** The filters that saw the request: the next to run is at this index. */
    private int seen;
    private boolean stopped;
    private boolean answered;
    /** The body a filter's answer carries, or null for the gateway's own text. */
    private String answerBody;
    private boolean completed;

    /** @param executor the request's event loop */
    public FilterRun(StreamFilterChain chain, FilteredRequest request, Deadlines deadlines, EventExecutor executor,
            String listenerName) {
        this.chain = chain;
        this.request = request;
        this.record = request.record();
        this.route = request.route();
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
    public boolean start() {
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
    public void resume() {
        if (!stopped || answered || completed) {
            return;
        }
        stopped = false;
        deadlines.cancel(this);
        if (runRequestFilters()) {
            request.filtersPassed();
        }
        request.afterFiltersAsync();
    }

    @Override
    public void readRequestBody(int maxBytes, RequestBodyListener listener) {
        if (!answered && !completed) {
            request.readBody(maxBytes, listener);
        }
    }

    @Override
    public void respond(int httpStatus, String reason) {
        respond(httpStatus, -1, reason);
    }

    @Override
    public void respond(int httpStatus, String reason, String body) {
        if (answered || completed) {
            return;
        }
        answerBody = body;
        respond(httpStatus, -1, reason);
    }

    /** The body a filter answered the request with ({@link #respond(int, String, String)}), or null. */
    public String answerBody() {
        return answerBody;
    }

    /** Answers with no reason: the protocol writes the answer as the gateway's own, not as an error. */
    @Override
    public void answer(int httpStatus) {
        respond(httpStatus, -1, null);
    }

    @Override
    public void respond(int httpStatus, int grpcStatus, String reason) {
        if (answered || completed) {
            return;
        }
        answered = true;
        boolean wasStopped = stopped;
        stopped = false;
        deadlines.cancel(this);
        request.filtersAnswered(httpStatus, grpcStatus, reason);
        if (wasStopped) {
            request.afterFiltersAsync();
        }
    }

    /** Whether a filter holds the request now. */
    public boolean holding() {
        return stopped;
    }

    /** A filter held the request past its timeout. */
    @Override
    protected void expired() {
        if (!stopped || answered || completed) {
            return;
        }
        respond(504, "filter_timeout");
    }

    /**
     * The client went away while a filter held its request: the request ends unanswered, recorded
     * as terminated downstream, and its filters are told. The protocol lets go of what it holds.
     */
    public void abandon() {
        stopped = false;
        deadlines.cancel(this);
        record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        record.finish(0);
    }

    /** Passes a part of the request body to the filters that saw the request, in order. */
    public void requestBody(ByteBuf content, boolean last) {
        for (int i = 0; i < seen; i++) {
            chain.get(i).onRequestBody(this, content, last);
        }
    }

    /** Passes the request's trailers to the filters that saw the request, in order. */
    public void requestTrailers(FilterHeaders trailers) {
        for (int i = 0; i < seen; i++) {
            chain.get(i).onRequestTrailers(this, trailers);
        }
    }

    /** Passes the response's trailers to the filters that saw the request, last first. */
    public void responseTrailers(FilterHeaders trailers) {
        for (int i = seen - 1; i >= 0; i--) {
            chain.get(i).onResponseTrailers(this, trailers);
        }
    }

    /** Passes the response head to the filters that saw the request, last first. */
    public void response(FilterResponse response) {
        for (int i = seen - 1; i >= 0; i--) {
            chain.get(i).onResponse(this, response);
        }
    }

    /** Passes a part of the response body to the filters that saw the request, last first. */
    public void responseBody(ByteBuf content, boolean last) {
        for (int i = seen - 1; i >= 0; i--) {
            chain.get(i).onResponseBody(this, content, last);
        }
    }

    /** The request ended with {@code status}: every filter that saw it is told, once. Called by the record. */
    @Override
    public void finished(int status) {
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
        if (mirrors != null) {
            for (MirrorRequest mirror : mirrors) {
                mirror.listener().mirrored(MirrorOutcome.SKIPPED);
            }
            mirrors = null;
        }
        request.filtersEnded();
    }

    /** A filter's wish to shadow the request ({@link #mirror}), until the request is forwarded. */
    public record MirrorRequest(String cluster, long maxBodyBytes, MirrorListener listener) {
    }

    /**
     * Keeps the copy until the protocol forwards the request and takes it ({@link #takeMirrors});
     * a request never forwarded sends none, reported {@link MirrorOutcome#SKIPPED} when it ends.
     */
    @Override
    public void mirror(String cluster, long maxBodyBytes, MirrorListener listener) {
        if (mirrors == null) {
            mirrors = new ArrayList<>(1);
        }
        mirrors.add(new MirrorRequest(cluster, maxBodyBytes, listener));
    }

    /** The copies filters asked for, now that the request is forwarded; null when none. Taken once. */
    public List<MirrorRequest> takeMirrors() {
        List<MirrorRequest> taken = mirrors;
        mirrors = null;
        return taken;
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

    @Override
    public RouteRequest request() {
        return request;
    }

    @Override
    public FilterHeaders requestHeaders() {
        if (requestHeaders == null) {
            requestHeaders = request.newFilterHeaders();
        }
        return requestHeaders;
    }

    @Override
    public String clientAddress() {
        return request.clientAddress();
    }

    @Override
    public EventExecutor executor() {
        return executor;
    }

    @Override
    public String listenerName() {
        return listenerName;
    }

    @Override
    public String routeName() {
        return route == null ? null : route.name();
    }

    @Override
    public void flag(ResponseFlag flag) {
        record.flag(flag);
    }

    @Override
    public void trace(String traceId, String spanId) {
        record.trace(traceId, spanId);
    }

    @Override
    public void listenToAttempts(AttemptListener listener) {
        record.attempts(listener);
    }

    @Override
    public String requestId() {
        String id = record.requestId();
        return id != null ? id : request.protocolRequestId();
    }

    @Override
    public String protocol() {
        return request.protocol();
    }

    @Override
    public boolean rpc() {
        return request.rpc();
    }

    @Override
    public boolean grpc() {
        return request.grpc();
    }

    @Override
    public String method() {
        return request.method();
    }

    @Override
    public String service() {
        return request.service();
    }

    @Override
    public String sni() {
        return request.sni();
    }

    @Override
    public String peerIdentity() {
        return request.peerIdentity();
    }

    @Override
    public String upstreamHost() {
        return record.upstreamHost();
    }

    @Override
    public Object state(StreamFilter filter) {
        if (states == null) {
            return null;
        }
        int index = indexOf(filter);
        return index < 0 ? null : states[index];
    }

    @Override
    public void state(StreamFilter filter, Object value) {
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
