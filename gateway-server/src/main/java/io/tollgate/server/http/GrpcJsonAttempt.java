package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpObject;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.server.exchange.Deadlines;
import io.tollgate.server.upstream.http.UpstreamConnection;
import io.tollgate.server.upstream.http.UpstreamPool;

/**
 * One try of a transcoded gRPC call against one host, a {@link PooledAttempt} on the host's HTTP/2
 * pool: what it hears of its stream goes to its {@link GrpcJsonExchange}.
 */
final class GrpcJsonAttempt extends PooledAttempt {

    private final GrpcJsonExchange exchange;
    private final long startNanos = System.nanoTime();

    GrpcJsonAttempt(GrpcJsonExchange exchange, UpstreamPool pool, CircuitBreakers breakers, boolean retry) {
        super(pool, breakers, retry);
        this.exchange = exchange;
    }

    /** Asks the pool for a stream; a per-try timeout above 0 bounds the whole attempt. */
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
            exchange.attemptReset(this);
        }
    }

    @Override
    public void onUpstreamCancelled() {
        if (letGo()) {
            exchange.attemptReset(this);
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
        // the call is one message, written at once
    }

    @Override
    protected void expired() {
        if (!ended()) {
            exchange.attemptTimedOut(this);
        }
    }

    /** Ends the attempt, giving its stream back ({@code reusable}: it carried a whole call). */
    void end(boolean reusable) {
        endUse(reusable);
    }
}
