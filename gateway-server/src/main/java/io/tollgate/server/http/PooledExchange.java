package io.tollgate.server.http;

import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.router.host.Host;
import io.tollgate.router.outlier.UpstreamFailure;
import io.tollgate.router.retry.RetryPolicy;
import io.tollgate.server.exchange.Exchange;
import io.tollgate.server.exchange.ExchangeTarget;
import io.tollgate.server.upstream.http.UpstreamConnection;
import io.tollgate.server.upstream.http.UpstreamPool;
import io.tollgate.server.upstream.http.UpstreamPools;

/**
 * An {@link Exchange} of an HTTP downstream whose attempts are {@link HttpAttempt}s on the
 * loop's HTTP pools, their {@link AttemptOwner}: a proxied request ({@link HttpExchange}) or a
 * transcoded gRPC call ({@link GrpcJsonExchange}). What the two do alike when an attempt fails is
 * written here once: a request that never reached its host goes to another host at once, else is
 * retried when the policy retries connect failures, else is answered unavailable; a timeout or a
 * reset is counted against the host and retried when the policy retries resets. How the answer
 * travels and how a failure is answered, the subclass says. Confined to the downstream's event loop.
 */
abstract class PooledExchange extends Exchange<UpstreamPool> implements DownstreamExchange, AttemptOwner {

    protected final HttpDownstream downstream;
    protected final HttpRouteRequest context;
    /** Null when the request may not be retried (no policy, method not retried). */
    protected final RetryPolicy retryPolicy;
    private final long perTryTimeoutNanos;
    private HttpAttempt attempt;

    /** @param retriable whether the request itself may be retried (its method); the route's policy decides the rest */
    PooledExchange(HttpDownstream downstream, HttpRouteRequest context, ExchangeTarget target, boolean retriable,
            UpstreamPools pools) {
        super(target, context.record(), retriable, downstream.deadlines(), downstream.eventLoop(), pools);
        this.downstream = downstream;
        this.context = context;
        this.perTryTimeoutNanos = perTryTimeoutNanos(target);
        this.retryPolicy = retries == null ? null : retries.policy();
    }

    /** Starts an attempt on {@code host}; {@link #awaitingConnection} when its connection is not at hand at once. */
    @Override
    protected final void attempt(Host host, boolean retry) {
        HttpAttempt started = new HttpAttempt(this, pool(host), target.breakers(), retry);
        attempt = started;
        started.start(deadlines(), perTryTimeoutNanos);
        if (attempt == started && started.connection() == null && !done()) {
            awaitingConnection();
        }
    }

    /** The attempt just started waits for its connection; by default nothing is done meanwhile. */
    protected void awaitingConnection() {
    }

    /** The current attempt's connection (or stream), null while there is none. */
    protected final UpstreamConnection connection() {
        return attempt == null ? null : attempt.connection();
    }

    /** Ends the current attempt, if any, giving its connection back ({@code reusable}: it carried a whole exchange). */
    protected final void endAttempt(boolean reusable) {
        if (attempt != null) {
            attempt.end(reusable);
            attempt = null;
            record.attemptEnded();
        }
    }

    /** Whether a response head of the host was taken: a refusal then is a reset like any other. */
    protected abstract boolean responseStarted();

    /**
     * Answers that no host can take the request (503, or the call's {@code UNAVAILABLE}), flagged
     * and counted by {@code reason}.
     */
    protected abstract void unavailable(String reason);

    /** Answers a timeout, the route's or the last attempt's, named {@code reason}; the exchange is flagged already. */
    protected abstract void timedOut(String reason);

    @Override
    protected final void noHostForRetry() {
        unavailable("no_healthy_upstream");
    }

    /**
     * Nothing was sent, so another host takes the request without a retry when there is one.
     */
    @Override
    public final void attemptNotConnected(HttpAttempt failed, UpstreamPool.Failure failure) {
        if (failure == UpstreamPool.Failure.OVERFLOW) {
            record.flag(ResponseFlag.UPSTREAM_OVERFLOW);
            overflowed();
            return;
        }
        if (failure == UpstreamPool.Failure.CONNECT_FAILED) {
            target.outcomes().failed(failed.host(), UpstreamFailure.CONNECT_FAILURE);
        }
        redispatchRetryOrFail(ResponseFlag.UPSTREAM_CONNECTION_FAILURE, "upstream_connect_failure");
    }

    /**
     * Sending the request again is safe, so it goes to another host at once without a retry, or
     * when there is none is retried as a connect failure would be.
     */
    @Override
    public final void attemptRefused(HttpAttempt refused) {
        if (responseStarted()) {
            attemptClosed(refused);
            return;
        }
        record.cluster().reset();
        redispatchRetryOrFail(ResponseFlag.UPSTREAM_CONNECTION_TERMINATION, "upstream_refused_stream");
    }

    /**
     * Ends the attempt that never reached the host's application (its connection failed, or the
     * stream was refused) and tries again elsewhere when the route's retry policy allows a connect
     * failure to be retried; otherwise answers unavailable, flagged {@code flag}, named {@code reason}.
     */
    private void redispatchRetryOrFail(ResponseFlag flag, String reason) {
        endAttempt(false);
        if (redispatch()) {
            return;
        }
        if (retryPolicy != null && retryPolicy.retriesConnectFailure() && grantRetry()) {
            scheduleRetry();
            return;
        }
        record.flag(flag);
        unavailable(reason);
    }

    /**
     * The current attempt failed on its host (a reset, a closed connection, a bad response): counted
     * against the host and ended; retried when the policy retries resets and a retry is possible
     * ({@link #retryPossible}) and granted.
     *
     * @return whether it was retried; otherwise the caller answers the failure
     */
    protected final boolean retriedAfterReset(HttpAttempt failed) {
        target.outcomes().failed(failed.host(), UpstreamFailure.RESET);
        record.cluster().reset();
        endAttempt(false);
        if (retryPolicy != null && retryPolicy.retriesReset() && grantRetry()) {
            scheduleRetry();
            return true;
        }
        return false;
    }

    @Override
    public final void attemptTimedOut(HttpAttempt late) {
        if (late.connection() != null) {
            target.outcomes().failed(late.host(), UpstreamFailure.TIMEOUT);
        }
        record.cluster().timeout();
        endAttempt(false);
        if (retryPolicy != null && retryPolicy.retriesReset() && grantRetry()) {
            scheduleRetry();
            return;
        }
        record.flag(ResponseFlag.UPSTREAM_REQUEST_TIMEOUT);
        timedOut("upstream_per_try_timeout");
    }

    /** The route timeout passed. */
    @Override
    protected final void expired() {
        if (done()) {
            return;
        }
        if (connection() != null) {
            target.outcomes().failed(attempt.host(), UpstreamFailure.TIMEOUT);
        }
        record.cluster().timeout();
        record.flag(ResponseFlag.UPSTREAM_REQUEST_TIMEOUT);
        timedOut("upstream_timeout");
    }

    @Override
    public final void responseBatchComplete() {
        downstream.flushResponse();
    }

    @Override
    public final void downstreamWritabilityChanged(boolean writable) {
        UpstreamConnection connection = connection();
        if (connection != null && !done()) {
            connection.setReading(writable);
        }
    }
}
