package io.tollgate.server.rpc;

import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.outlier.UpstreamFailure;
import io.tollgate.server.exchange.Attempt;

/**
 * One try of an {@link RpcCall} (or of a shadow copy of one) on one multiplexed upstream connection: the request id it was sent
 * under and its per-try timer. Once ended, the connection forgets its id, so that a late answer is
 * dropped. Confined to the call's event loop.
 */
final class RpcAttempt extends Attempt {

    private final AttemptOwner call;
    private final RpcHostPool pool;
    private RpcUpstreamConnection connection;
    private long upstreamId;

    RpcAttempt(AttemptOwner call, RpcHostPool pool, CircuitBreakers breakers, boolean retry) {
        super(pool.host(), breakers, retry);
        this.call = call;
        this.pool = pool;
    }

    /**
     * Sends {@code frame} on a connection of the pool. Ownership of the frame passes unless the
     * answer is false.
     *
     * @return false when no connection could take it (see {@link RpcUpstreamConnection#send})
     */
    boolean send(RpcFrame frame) {
        return pool.connection().send(frame, this);
    }

    /** Called by the connection that took the request, with the id it gave it. */
    void sentOn(RpcUpstreamConnection connection, long upstreamId) {
        this.connection = connection;
        this.upstreamId = upstreamId;
    }

    /** Starts waiting for the response; a per-try timeout above 0 bounds the wait. */
    void start(long perTryTimeoutNanos) {
        activeOnHost();
        startPerTryTimeout(pool.loop().deadlines(), perTryTimeoutNanos);
    }

    /** The connection the request went to, or null before it was sent. */
    RpcUpstreamConnection connection() {
        return connection;
    }

    /** The upstream response, whose ownership passes here. */
    void respond(RpcFrame response) {
        if (ended()) {
            response.release();
            return;
        }
        call.attemptResponded(this, response);
    }

    /** The connection failed to connect or closed before the response came. */
    void fail(ResponseFlag flag, UpstreamFailure failure) {
        if (!ended()) {
            call.attemptFailed(this, flag, failure);
        }
    }

    /** The connection never opened: {@code frame} (ownership passes here) was never sent. */
    void unsent(RpcFrame frame) {
        if (ended()) {
            frame.release();
            return;
        }
        call.attemptUnsent(this, frame);
    }

    /** The per-try timeout passed. */
    @Override
    protected void expired() {
        if (!ended()) {
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
        if (!markEnded()) {
            return false;
        }
        return connection != null && connection.forget(upstreamId, this);
    }
}
