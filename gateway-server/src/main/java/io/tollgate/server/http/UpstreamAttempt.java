package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpObject;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.server.exchange.Attempt;
import io.tollgate.server.exchange.Deadlines;
import io.tollgate.server.upstream.UpstreamConnection;
import io.tollgate.server.upstream.UpstreamListener;
import io.tollgate.server.upstream.UpstreamPool;

/**
 * One try of an HTTP exchange against one host, an {@link Attempt}: getting a connection (or
 * HTTP/2 stream) from the host's pool and using it. A connection that arrives after the attempt
 * ended goes straight back to the pool.
 */
final class UpstreamAttempt extends Attempt implements UpstreamPool.Acquirer, UpstreamListener {

    private final HttpExchange exchange;
    private final UpstreamPool pool;
    private final long startNanos = System.nanoTime();
    private UpstreamConnection connection;

    /**
     * @param breakers the cluster's breakers, from which the caller took a request (and, when
     *     {@code retry}, a retry) that this attempt gives back when it ends
     */
    UpstreamAttempt(HttpExchange exchange, UpstreamPool pool, CircuitBreakers breakers, boolean retry) {
        super(pool.host(), breakers, retry);
        this.exchange = exchange;
        this.pool = pool;
    }

    /** Asks the pool for a connection; a per-try timeout above 0 bounds the whole attempt. */
    void start(Deadlines loopDeadlines, long perTryTimeoutNanos) {
        startPerTryTimeout(loopDeadlines, perTryTimeoutNanos);
        pool.acquire(this);
    }

    /** The connection in use, or null while it is awaited or after it closed. */
    UpstreamConnection connection() {
        return connection;
    }

    long elapsedNanos() {
        return System.nanoTime() - startNanos;
    }

    @Override
    public void acquired(UpstreamConnection acquired) {
        if (ended()) {
            pool.release(acquired, true);
            return;
        }
        connection = acquired;
        acquired.bind(this);
        activeOnHost();
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

    /** The host ended the attempt's use of its connection: lets go of it; returns whether the exchange still listens. */
    private boolean letGo() {
        if (connection != null) {
            inactiveOnHost();
            connection = null;
        }
        return !ended();
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
        if (!markEnded()) {
            return;
        }
        UpstreamConnection used = connection;
        connection = null;
        if (used != null) {
            pool.release(used, reusable);
        } else {
            pool.cancel(this);
        }
    }
}
