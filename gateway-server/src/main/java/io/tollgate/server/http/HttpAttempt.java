package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpObject;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.server.exchange.Deadlines;
import io.tollgate.server.upstream.http.UpstreamConnection;
import io.tollgate.server.upstream.http.UpstreamPool;

/**
 * One try of an HTTP exchange against one host (the twin of the RPC engine's {@code RpcAttempt}),
 * a {@link PooledAttempt}: what it hears of its connection (or HTTP/2 stream) and its per-try
 * timeout goes to its {@link AttemptOwner}, while it has not ended.
 */
final class HttpAttempt extends PooledAttempt {

    private final AttemptOwner exchange;
    private final long startNanos = System.nanoTime();

    /**
     * @param breakers the cluster's breakers, from which the caller took a request (and, when
     *     {@code retry}, a retry) that this attempt gives back when it ends
     */
    HttpAttempt(AttemptOwner exchange, UpstreamPool pool, CircuitBreakers breakers, boolean retry) {
        super(pool, breakers, retry);
        this.exchange = exchange;
    }

    /** Asks the pool for a connection; a per-try timeout above 0 bounds the whole attempt. */
    void start(Deadlines loopDeadlines, long perTryTimeoutNanos) {
        startPerTryTimeout(loopDeadlines, perTryTimeoutNanos);
        pool.acquire(this);
    }

    long elapsedNanos() {
        return System.nanoTime() - startNanos;
    }

    @Override
    protected void connected(UpstreamConnection acquired) {
        exchange.attemptConnected(this);
    }

    @Override
    public void failed(UpstreamPool.Failure failure, Throwable cause) {
        if (!ended()) {
            exchange.attemptNotConnected(this, failure);
        }
    }

    @Override
    public void onResponse(HttpObject msg) {
        if (ended()) {
            ReferenceCountUtil.release(msg);
            return;
        }
        exchange.attemptResponse(this, msg);
    }

    @Override
    public void onResponseBatchComplete() {
        if (!ended()) {
            exchange.responseBatchComplete();
        }
    }

    @Override
    public void onUpstreamClosed() {
        if (letGo()) {
            exchange.attemptClosed(this);
        }
    }

    @Override
    public void onUpstreamCancelled() {
        if (letGo()) {
            exchange.attemptCancelled(this);
        }
    }

    @Override
    public void onUpstreamRefused() {
        if (letGo()) {
            exchange.attemptRefused(this);
        }
    }

    @Override
    public void onUpstreamWritabilityChanged(boolean writable) {
        if (!ended()) {
            exchange.upstreamWritabilityChanged(writable);
        }
    }

    /** The per-try timeout passed. */
    @Override
    protected void expired() {
        if (!ended()) {
            exchange.attemptTimedOut(this);
        }
    }

    /**
     * Ends the attempt: gives its connection back to the pool ({@code reusable} says it carried a
     * whole request and response) or stops waiting for one, and gives back what it took from the
     * breakers. Later calls do nothing.
     */
    void end(boolean reusable) {
        endUse(reusable);
    }
}
