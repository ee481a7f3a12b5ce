package io.tollgate.server.http;

import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.server.exchange.Attempt;
import io.tollgate.server.upstream.http.UpstreamConnection;
import io.tollgate.server.upstream.http.UpstreamListener;
import io.tollgate.server.upstream.http.UpstreamPool;

/**
 * An {@link Attempt} on an HTTP pool: it gets a connection (or HTTP/2 stream) of its host from the
 * pool, uses it, and gives it back, or stops waiting for it, when it ends. A connection that
 * arrives after the attempt ended goes straight back to the pool. What is sent and what is done
 * with the answer, an exchange's try ({@link HttpAttempt}) or a shadow copy
 * ({@link HttpShadowCopy}) says. Confined to the pool's event loop.
 */
abstract class PooledAttempt extends Attempt implements UpstreamPool.Acquirer, UpstreamListener {

    protected final UpstreamPool pool;
    private UpstreamConnection connection;

    /**
     * @param breakers the breakers, from which the caller took a request (and, when {@code retry},
     *     a retry) that this attempt gives back when it ends
     */
    PooledAttempt(UpstreamPool pool, CircuitBreakers breakers, boolean retry) {
        super(pool.host(), breakers, retry);
        this.pool = pool;
    }

    /** The connection in use, or null while it is awaited or after it closed. */
    final UpstreamConnection connection() {
        return connection;
    }

    @Override
    public final void acquired(UpstreamConnection acquired) {
        if (ended()) {
            pool.release(acquired, true);
            return;
        }
        connection = acquired;
        acquired.bind(this);
        activeOnHost();
        connected(acquired);
    }

    /** The attempt has its connection, bound to it and counted on its host. */
    protected abstract void connected(UpstreamConnection acquired);

    /** The host ended the attempt's use of its connection: lets go of it; returns whether the attempt goes on. */
    protected final boolean letGo() {
        if (connection != null) {
            inactiveOnHost();
            connection = null;
        }
        return !ended();
    }

    /**
     * Ends the attempt: gives its connection back to the pool ({@code reusable} says it carried a
     * whole request and response) or stops waiting for one, and gives back what it took from the
     * breakers.
     *
     * @return false when it had ended already, and nothing was done
     */
    protected final boolean endUse(boolean reusable) {
        if (!markEnded()) {
            return false;
        }
        UpstreamConnection used = connection;
        connection = null;
        if (used != null) {
            pool.release(used, reusable);
        } else {
            pool.cancel(this);
        }
        return true;
    }
}
