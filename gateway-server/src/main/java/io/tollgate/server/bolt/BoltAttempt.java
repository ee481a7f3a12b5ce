package io.tollgate.server.bolt;

import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.cluster.Host;
import io.tollgate.router.outlier.UpstreamFailure;
import java.util.concurrent.TimeUnit;

/**
 * One try of a {@link BoltCall} on one upstream connection: the request id it was sent under, its
 * per-try timer, and the request (and, for a retry, the retry) it took from the circuit breakers,
 * given back when it ends. Once ended, nothing its connection hears reaches the call any more, so
 * that a retry never sees its predecessor's late answer. Confined to the call's event loop.
 */
final class BoltAttempt {

    private final BoltCall call;
    private final BoltHostPool pool;
    private final CircuitBreakers breakers;
    private final boolean retry;
    private BoltUpstreamConnection connection;
    private int upstreamId;
    private ScheduledFuture<?> perTryTimer;
    private boolean started;
    private boolean ended;

    /**
     * @param breakers the breakers the caller took a request (and, when {@code retry}, a retry)
     *     from, which this attempt gives back when it ends
     */
    BoltAttempt(BoltCall call, BoltHostPool pool, CircuitBreakers breakers, boolean retry) {
        this.call = call;
        this.pool = pool;
        this.breakers = breakers;
        this.retry = retry;
    }

    /**
     * Sends {@code frame} on a connection of the pool. Ownership of the frame passes unless the
     * answer is false.
     *
     * @return false when no connection could take it (see {@link BoltUpstreamConnection#send})
     */
    boolean send(BoltFrame frame) {
        return pool.connection().send(frame, this);
    }

    /** Called by the connection that took the request, with the id it gave it. */
    void sentOn(BoltUpstreamConnection connection, int upstreamId) {
        this.connection = connection;
        this.upstreamId = upstreamId;
    }

    /** Starts waiting for the response; a per-try timeout above 0 bounds the wait. */
    void start(long perTryTimeoutNanos) {
        started = true;
        pool.host().requestStarted();
        if (perTryTimeoutNanos > 0) {
            perTryTimer = pool.loop().eventLoop().schedule(this::perTryTimedOut, perTryTimeoutNanos,
                    TimeUnit.NANOSECONDS);
        }
    }

    Host host() {
        return pool.host();
    }

    /** The connection the request went to, or null before it was sent. */
    BoltUpstreamConnection connection() {
        return connection;
    }

    /** The upstream response, whose ownership passes here. */
    void respond(BoltFrame response) {
        if (ended) {
            response.release();
            return;
        }
        call.attemptResponded(this, response);
    }

    /** The connection failed to connect or closed before the response came. */
    void fail(ResponseFlag flag, UpstreamFailure failure) {
        if (!ended) {
            call.attemptFailed(this, flag, failure);
        }
    }

    private void perTryTimedOut() {
        if (!ended) {
            call.attemptTimedOut(this);
        }
        pool.loop().flush();
    }

    /**
     * Ends the attempt: its id is forgotten by the connection (a late response is dropped, a frame
     * still waiting for the connection is dropped unsent), its timer cancelled, and what it took
     * from the breakers given back. Later calls do nothing.
     *
     * @return whether the request had been sent upstream
     */
    boolean end() {
        if (ended) {
            return false;
        }
        ended = true;
        if (perTryTimer != null) {
            perTryTimer.cancel(false);
        }
        if (started) {
            pool.host().requestFinished();
        }
        breakers.requestFinished();
        if (retry) {
            breakers.retryFinished();
        }
        return connection != null && connection.forget(upstreamId, this);
    }
}
