package io.tollgate.server.rpc;

import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.router.cluster.Host;
import io.tollgate.router.outlier.UpstreamFailure;
import io.tollgate.router.retry.RetryPolicy;
import io.tollgate.server.exchange.Exchange;
import io.tollgate.server.exchange.ExchangeRecord;
import io.tollgate.server.exchange.ExchangeTarget;
import io.tollgate.server.filter.FilterRun;

/**
 * One two-way RPC request forwarded upstream and not yet answered, an {@link Exchange}: it knows
 * the caller's request id and reply form to answer with, and ends exactly once, by a response it
 * forwards, its timeout, a failure it answers, or the close of the downstream connection. Every
 * attempt's outcome is reported to the cluster's outlier detection.
 *
 * <p>A retry follows the route's retry policy ({@code connect-failure}, {@code reset}, and for a
 * response whose status reports a busy server or a timeout, {@code rpc-busy} and
 * {@code rpc-timeout}, which every RPC protocol honours) and needs a retry of the breakers' budget.
 * A response that asks for a retry is dropped when the retry is granted and forwarded when it is
 * not, so the caller sees the last attempt's answer.
 *
 * <p>The request frame: when the route may retry, the call holds one reference to it until it ends
 * and gives each attempt another, so the same bytes go out again under a new upstream id; else the
 * only attempt takes the call's reference. Either way the frame is released exactly once per
 * reference.
 */
final class RpcCall extends Exchange<RpcHostPool> implements AttemptOwner {

    /** Links of the downstream connection's {@link InFlightCalls}. */
    RpcCall previous;
    RpcCall next;

    private final CallSide downstream;
    private final RpcLoop loop;
    private final int replyForm;
    private final long callerId;
    /** The call's stream filters, null when it has none. */
    private final FilterRun filters;
    /** The call's reference to the request, null once given away or released. */
    private RpcFrame frame;
    private RpcAttempt attempt;

    /** @param frame the two-way request, whose ownership passes here */
    RpcCall(CallSide downstream, RpcLoop loop, ExchangeRecord record, ExchangeTarget target,
            RpcFrame frame, FilterRun filters) {
        super(target, record, true, loop.deadlines(), loop.eventLoop(), loop);
        this.downstream = downstream;
        this.filters = filters;
        this.loop = loop;
        this.frame = frame;
        this.replyForm = frame.replyForm();
        this.callerId = frame.requestId();
    }

    /** Starts the first attempt on {@code host}; the whole call takes at most {@code timeoutNanos}. */
    void start(Host host, long timeoutNanos) {
        startTimeout(timeoutNanos);
        startAttempt(host);
    }

    @Override
    protected void attempt(Host host, boolean retry) {
        RpcAttempt started = new RpcAttempt(this, pool(host), target.breakers(), retry);
        if (!send(started)) {
            started.end();
            target.metrics().poolOverflow();
            record.flag(ResponseFlag.UPSTREAM_OVERFLOW);
            overflowed();
            return;
        }
        attempt = started;
        started.start(perTryTimeoutNanos(target));
        downstream.pauseWhileFull(started.connection());
    }

    /** Gives {@code to} a reference to the request; false when it did not take it. */
    private boolean send(RpcAttempt to) {
        boolean keep = retries != null;
        if (keep) {
            frame.retain();
        }
        if (to.send(frame)) {
            if (!keep) {
                frame = null;
            }
            return true;
        }
        if (keep) {
            frame.release();
        }
        return false;
    }

    /** The current attempt's response, whose ownership passes here. */
    @Override
    public void attemptResponded(RpcAttempt answered, RpcFrame response) {
        int status = response.httpStatus();
        target.outcomes().responded(answered.host(), status);
        target.metrics().requestCompleted(status, record.elapsedNanos());
        endAttempt();
        boolean retriable = asksForRetry(response.statusError());
        if (retriable && grantRetry()) {
            response.release();
            scheduleRetry();
            return;
        }
        if (retries != null && retries.count() > 0 && !retriable) {
            target.metrics().retrySuccess();
        }
        end();
        downstream.answer(record, filters, response, callerId, status);
    }

    /**
     * The current attempt's connection never opened and hands back {@code unsent} (ownership
     * passes here): another host takes the request at once without a retry when there is one;
     * else it is a connect failure.
     */
    @Override
    public void attemptUnsent(RpcAttempt failed, RpcFrame unsent) {
        if (frame == null) {
            frame = unsent;
        } else {
            unsent.release();
        }
        target.outcomes().failed(failed.host(), UpstreamFailure.CONNECT_FAILURE);
        endAttempt();
        if (redispatch()) {
            return;
        }
        retryOrFail(ResponseFlag.UPSTREAM_CONNECTION_FAILURE, UpstreamFailure.CONNECT_FAILURE);
    }

    /** The current attempt's connection could not connect, or closed before the response. */
    @Override
    public void attemptFailed(RpcAttempt failed, ResponseFlag flag, UpstreamFailure failure) {
        target.outcomes().failed(failed.host(), failure);
        if (failure == UpstreamFailure.RESET) {
            target.metrics().reset();
        }
        endAttempt();
        retryOrFail(flag, failure);
    }

    /** Retries a failed attempt when the policy wants it and the breakers allow, else answers connection closed. */
    private void retryOrFail(ResponseFlag flag, UpstreamFailure failure) {
        RetryPolicy policy = retries == null ? null : retries.policy();
        boolean wanted = policy != null && (failure == UpstreamFailure.CONNECT_FAILURE
                ? policy.retriesConnectFailure() : policy.retriesReset());
        if (wanted && grantRetry()) {
            scheduleRetry();
            return;
        }
        fail(flag, RpcError.CONNECTION_CLOSED);
    }

    /**
     * The current attempt outlived the per-try timeout. It is retried only when its frame has left
     * the old connection: the retry rewrites the request id in the same bytes.
     */
    @Override
    public void attemptTimedOut(RpcAttempt late) {
        target.metrics().timeout();
        RpcUpstreamConnection connection = late.connection();
        attempt = null;
        boolean sent = late.end();
        if (sent) {
            target.outcomes().failed(late.host(), UpstreamFailure.TIMEOUT);
        }
        RetryPolicy policy = retries == null ? null : retries.policy();
        boolean wanted = policy != null && (policy.retriesReset() || policy.retriesRpcTimeout());
        if (wanted && (!sent || connection.wroteEverything()) && grantRetry()) {
            scheduleRetry();
            return;
        }
        fail(ResponseFlag.UPSTREAM_REQUEST_TIMEOUT, RpcError.TIMEOUT);
    }

    /** The caller's connection closed: the call ends unanswered. */
    void abandon() {
        if (done()) {
            return;
        }
        record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        end();
        record.finish(0);
    }

    private boolean asksForRetry(RpcError statusError) {
        if (retries == null || statusError == null) {
            return false;
        }
        if (statusError == RpcError.OVERFLOW) {
            return retries.policy().retriesBusy();
        }
        return statusError == RpcError.TIMEOUT && retries.policy().retriesRpcTimeout();
    }

    /** The route timeout passed. */
    @Override
    protected void expired() {
        if (done()) {
            return;
        }
        target.metrics().timeout();
        RpcAttempt late = attempt;
        attempt = null;
        if (late != null && late.end()) {
            target.outcomes().failed(late.host(), UpstreamFailure.TIMEOUT);
        }
        fail(ResponseFlag.UPSTREAM_REQUEST_TIMEOUT, RpcError.TIMEOUT);
        loop.flush();
    }

    @Override
    protected void overflowed() {
        fail(null, RpcError.OVERFLOW);
    }

    @Override
    protected void noHostForRetry() {
        fail(null, RpcError.NO_HEALTHY_UPSTREAM);
    }

    @Override
    protected void afterTimer() {
        loop.flush();
    }

    /** Answers the caller with a gateway-made {@code error}; the caller of this method flushes. */
    private void fail(ResponseFlag flag, RpcError error) {
        if (done()) {
            return;
        }
        if (flag != null) {
            record.flag(flag);
        }
        end();
        downstream.failed(reason(error));
        downstream.reply(record, filters, replyForm, callerId, error);
    }

    /** The reason a call's failure is counted under, as HTTP names the same failures. */
    private static String reason(RpcError error) {
        return switch (error) {
            case OVERFLOW -> "upstream_overflow";
            case TIMEOUT -> "upstream_timeout";
            case CONNECTION_CLOSED -> "upstream_connection_closed";
            case NO_HEALTHY_UPSTREAM -> "no_healthy_upstream";
            case NO_ROUTE, MALFORMED, PERMISSION_DENIED, SERVER_ERROR, RATE_LIMITED ->
                    throw new IllegalStateException(error + " is answered before a call starts");
        };
    }

    private void endAttempt() {
        if (attempt != null) {
            attempt.end();
            attempt = null;
        }
    }

    /** Marks the call ended and lets go of everything it holds. */
    private void end() {
        markDone();
        downstream.ended(this);
        endAttempt();
        if (frame != null) {
            frame.release();
            frame = null;
        }
    }
}
