package io.tollgate.server.exchange;

import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.host.Host;

/**
 * One try of an exchange against one host, whatever the protocol: it holds a request (and, for a
 * retry, a retry) of the route's circuit breakers until it ends, counts as an active request of its
 * host while it uses a connection, and is itself its per-try timeout's {@link Deadline}. Once
 * ended, nothing it hears reaches the exchange any more, so that a retry never sees its
 * predecessor's late events. Confined to the exchange's event loop.
 */
public abstract class Attempt extends Deadline {

    private final Host host;
    private final CircuitBreakers breakers;
    private final boolean retry;
    private Deadlines deadlines;
    private boolean active;
    private boolean ended;

    /**
     * @param breakers the breakers the caller took a request (and, when {@code retry}, a retry)
     *     from, which this attempt gives back when it ends
     */
    protected Attempt(Host host, CircuitBreakers breakers, boolean retry) {
        this.host = host;
        this.breakers = breakers;
        this.retry = retry;
    }

    public final Host host() {
        return host;
    }

    /** Whether the attempt ended; then it passes nothing on. */
    public final boolean ended() {
        return ended;
    }

    /** Starts the per-try timeout, when {@code timeoutNanos} is above 0. */
    protected final void startPerTryTimeout(Deadlines loopDeadlines, long timeoutNanos) {
        if (timeoutNanos > 0) {
            deadlines = loopDeadlines;
            loopDeadlines.start(this, timeoutNanos);
        }
    }

    /** The attempt uses a connection of its host now: it counts among the host's active requests. */
    protected final void activeOnHost() {
        if (!active) {
            active = true;
            host.requestStarted();
        }
    }

    /** The attempt no longer uses its host's connection. */
    protected final void inactiveOnHost() {
        if (active) {
            active = false;
            host.requestFinished();
        }
    }

    /**
     * Marks the attempt ended: cancels its timer, stops counting on its host and gives back what it
     * took from the breakers.
     *
     * @return false when it had ended already, and nothing was done
     */
    protected final boolean markEnded() {
        if (ended) {
            return false;
        }
        ended = true;
        if (deadlines != null) {
            deadlines.cancel(this);
        }
        inactiveOnHost();
        breakers.requestFinished();
        if (retry) {
            breakers.retryFinished();
        }
        return true;
    }
}
