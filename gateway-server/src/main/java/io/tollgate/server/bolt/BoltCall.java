package io.tollgate.server.bolt;

import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.bolt.BoltDialect;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.router.cluster.Host;
import io.tollgate.router.outlier.UpstreamFailure;
import io.tollgate.router.retry.RetryPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One two-way request forwarded upstream and not yet answered: it makes one {@link BoltAttempt}
 * after another (a retry goes to another host when the cluster has one, after a jittered backoff
 * on the event loop), knows the caller's request id and dialect to answer with, and ends exactly
 * once, by a response it forwards, its timeout, a failure it answers, or the close of the
 * downstream connection. Every attempt's outcome is reported to the cluster's outlier detection.
 *
 * <p>Each attempt takes a request from the circuit breakers of the route's priority; past
 * {@code max_requests} the caller is answered {@link BoltStatus#SERVER_THREADPOOL_BUSY} at once.
 * A retry follows the route's retry policy ({@code connect-failure}, {@code reset},
 * {@code bolt-busy}, {@code bolt-timeout}, and what {@code 5xx} and {@code gateway-error} imply)
 * and needs a retry of the breakers' budget. A response that asks for a retry is dropped when the
 * retry is granted and forwarded when it is not, so the caller sees the last attempt's answer.
 *
 * <p>The request frame: when the route may retry, the call holds one reference to it until it ends
 * and gives each attempt another, so the same bytes go out again under a new upstream id; else the
 * only attempt takes the call's reference. Either way the frame is released exactly once per
 * reference.
 */
final class BoltCall {

    /** Links of the downstream connection's {@link InFlightCalls}. */
    BoltCall previous;
    BoltCall next;

    private final BoltDownstreamHandler downstream;
    private final BoltRecord record;
    private final BoltTarget target;
    private final BoltDialect dialect;
    private final int callerId;
    /** Null when the call is never retried. */
    private final RetryPolicy retryPolicy;
    private final List<Host> tried = new ArrayList<>(2);
    /** The call's reference to the request, null once given away or released. */
    private BoltFrame frame;
    private BoltAttempt attempt;
    private ScheduledFuture<?> timeout;
    private ScheduledFuture<?> backoff;
    private int retries;
    /** A retry was granted by the breakers and waits for its attempt, which then holds it. */
    private boolean retryGranted;
    private boolean done;

    /** @param frame the two-way request, whose ownership passes here */
    BoltCall(BoltDownstreamHandler downstream, BoltRecord record, BoltTarget target, BoltFrame frame) {
        this.downstream = downstream;
        this.record = record;
        this.target = target;
        this.frame = frame;
        this.dialect = frame.dialect();
        this.callerId = (int) frame.requestId();
        RetryPolicy policy = target.route().retryPolicy();
        this.retryPolicy = policy != null && policy.numRetries() > 0 ? policy : null;
    }

    /** Starts the first attempt on {@code host}; the whole call takes at most {@code timeoutMillis}. */
    void start(Host host, long timeoutMillis) {
        timeout = target.loop().eventLoop().schedule(this::timedOut, timeoutMillis, TimeUnit.MILLISECONDS);
        startAttempt(host);
    }

    private void startAttempt(Host host) {
        tried.add(host);
        record.upstreamHost(host.id());
        if (!target.breakers().tryStartRequest()) {
            target.metrics().requestOverflow();
            overflowed();
            return;
        }
        BoltAttempt started = new BoltAttempt(this, target.pool(host), target.breakers(), retryGranted);
        retryGranted = false;
        if (!send(started)) {
            started.end();
            target.metrics().poolOverflow();
            overflowed();
            return;
        }
        attempt = started;
        started.start(retryPolicy == null ? 0 : retryPolicy.perTryTimeoutNanos());
        downstream.pauseWhileFull(started.connection());
    }

    /** Gives {@code to} a reference to the request; false when it did not take it. */
    private boolean send(BoltAttempt to) {
        boolean keep = retryPolicy != null;
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
    void attemptResponded(BoltAttempt answered, BoltFrame response) {
        int status = BoltStatus.httpStatusOf(response.status());
        target.outcomes().responded(answered.host(), status);
        target.metrics().requestCompleted(status, record.elapsedNanos());
        endAttempt();
        boolean retriable = asksForRetry(response.status());
        if (retriable && grantRetry()) {
            response.release();
            scheduleRetry();
            return;
        }
        if (retries > 0 && !retriable) {
            target.metrics().retrySuccess();
        }
        end();
        int length = response.frameLength();
        response.requestId(callerId);
        if (downstream.write(response)) {
            record.sent(length);
        } else {
            record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        }
        record.finish(status);
    }

    /** The current attempt's connection could not connect, or closed before the response. */
    void attemptFailed(BoltAttempt failed, ResponseFlag flag, UpstreamFailure failure) {
        target.outcomes().failed(failed.host(), failure);
        if (failure == UpstreamFailure.RESET) {
            target.metrics().reset();
        }
        endAttempt();
        boolean wanted = retryPolicy != null && (failure == UpstreamFailure.CONNECT_FAILURE
                ? retryPolicy.retriesConnectFailure() : retryPolicy.retriesReset());
        if (wanted && grantRetry()) {
            scheduleRetry();
            return;
        }
        fail(flag, BoltStatus.CONNECTION_CLOSED);
    }

    /**
     * The current attempt outlived the per-try timeout. It is retried only when its frame has left
     * the old connection: the retry rewrites the request id in the same bytes.
     */
    void attemptTimedOut(BoltAttempt late) {
        target.metrics().timeout();
        BoltUpstreamConnection connection = late.connection();
        attempt = null;
        boolean sent = late.end();
        if (sent) {
            target.outcomes().failed(late.host(), UpstreamFailure.TIMEOUT);
        }
        boolean wanted = retryPolicy != null && (retryPolicy.retriesReset() || retryPolicy.retriesBoltTimeout());
        if (wanted && (!sent || connection.wroteEverything()) && grantRetry()) {
            scheduleRetry();
            return;
        }
        fail(ResponseFlag.UPSTREAM_REQUEST_TIMEOUT, BoltStatus.TIMEOUT);
    }

    /** The caller's connection closed: the call ends unanswered. */
    void abandon() {
        if (done) {
            return;
        }
        record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        end();
        record.finish(0);
    }

    private boolean asksForRetry(int boltStatus) {
        if (retryPolicy == null) {
            return false;
        }
        if (boltStatus == BoltStatus.SERVER_THREADPOOL_BUSY.code()) {
            return retryPolicy.retriesBusy();
        }
        return boltStatus == BoltStatus.TIMEOUT.code() && retryPolicy.retriesBoltTimeout();
    }

    /**
     * Decides whether a failed attempt (the policy wants it retried) gets another one: retries
     * left, and the retry budget or {@code max_retries} of the breakers not used up. A granted
     * retry is held until its attempt ends.
     */
    private boolean grantRetry() {
        if (!retryPolicy.grant(retries, target.breakers(), target.metrics())) {
            record.flag(ResponseFlag.UPSTREAM_RETRY_LIMIT_EXCEEDED);
            return false;
        }
        retryGranted = true;
        return true;
    }

    private void scheduleRetry() {
        retries++;
        target.metrics().retry();
        long delay = retryPolicy.backoffNanos(retries, ThreadLocalRandom.current());
        backoff = target.loop().eventLoop().schedule(this::retryNow, delay, TimeUnit.NANOSECONDS);
    }

    private void retryNow() {
        backoff = null;
        if (done) {
            return;
        }
        Host host = target.retryHost(tried);
        if (host == null) {
            target.metrics().noHealthyHost();
            fail(ResponseFlag.NO_HEALTHY_UPSTREAM, BoltStatus.CONNECTION_CLOSED);
        } else {
            startAttempt(host);
        }
        target.loop().flush();
    }

    private void timedOut() {
        if (done) {
            return;
        }
        target.metrics().timeout();
        BoltAttempt late = attempt;
        attempt = null;
        if (late != null && late.end()) {
            target.outcomes().failed(late.host(), UpstreamFailure.TIMEOUT);
        }
        fail(ResponseFlag.UPSTREAM_REQUEST_TIMEOUT, BoltStatus.TIMEOUT);
        target.loop().flush();
    }

    private void overflowed() {
        fail(ResponseFlag.UPSTREAM_OVERFLOW, BoltStatus.SERVER_THREADPOOL_BUSY);
    }

    /** Answers the caller with a gateway-made {@code status}; the caller of this method flushes. */
    private void fail(ResponseFlag flag, BoltStatus status) {
        if (done) {
            return;
        }
        record.flag(flag);
        end();
        downstream.reply(record, dialect, callerId, status);
    }

    private void endAttempt() {
        if (attempt != null) {
            attempt.end();
            attempt = null;
        }
    }

    /** Marks the call ended and lets go of everything it holds. */
    private void end() {
        done = true;
        downstream.ended(this);
        timeout.cancel(false);
        if (backoff != null) {
            backoff.cancel(false);
            backoff = null;
        }
        endAttempt();
        if (retryGranted) {
            retryGranted = false;
            target.breakers().retryFinished();
        }
        if (frame != null) {
            frame.release();
            frame = null;
        }
    }
}
