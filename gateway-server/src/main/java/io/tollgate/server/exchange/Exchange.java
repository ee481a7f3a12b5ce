package io.tollgate.server.exchange;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.router.host.Host;
import io.tollgate.router.retry.RetryPolicy;
import io.tollgate.server.upstream.HostPool;
import io.tollgate.server.upstream.HostPools;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The life of one request crossing the proxy, the same for every protocol: it makes one attempt
 * after another on the hosts of its target, each taking a request from the circuit breakers (past
 * {@code max_requests} the protocol answers overflow at once), retries under the route's policy
 * and the breakers' budget on another host when the cluster has one, after a jittered backoff on
 * the event loop, and ends by its route timeout unless it ended otherwise first. The exchange is
 * itself that timeout's {@link Deadline}, kept by the event loop's {@link Deadlines}.
 *
 * <p>What an attempt is, how a response travels, and how the protocol answers what the gateway
 * knows already, a subclass says; it finds the pool of each attempt's host with {@link #pool}.
 * Confined to the event loop of the downstream connection.
 *
 * @param <P> the kind of pool the protocol's attempts use
 */
public abstract class Exchange<P extends HostPool> extends Deadline {

    protected final ExchangeTarget target;
    protected final ExchangeRecord record;
    /** Null when the request is never retried. */
    protected final Retries retries;
    private final Deadlines deadlines;
    private final EventExecutor loop;
    private final HostPools<P> pools;
    private final List<Host> tried = new ArrayList<>(2);
    private ScheduledFuture<?> backoff;
    private boolean done;

    /**
     * @param retriable whether the request itself may be retried (its method, its body held); the
     *     route's policy decides the rest
     * @param pools the event loop's pools the attempts go through
     */
    protected Exchange(ExchangeTarget target, ExchangeRecord record, boolean retriable, Deadlines deadlines,
            EventExecutor loop, HostPools<P> pools) {
        this.target = target;
        this.record = record;
        RetryPolicy policy = target.route().retryPolicy();
        this.retries = retriable && policy != null && policy.numRetries() > 0 ? new Retries(policy, target) : null;
        this.deadlines = deadlines;
        this.loop = loop;
        this.pools = pools;
    }

    /** The per-try timeout of the route's retry policy, 0 for none. */
    protected static long perTryTimeoutNanos(ExchangeTarget target) {
        RetryPolicy policy = target.route().retryPolicy();
        return policy == null ? 0 : policy.perTryTimeoutNanos();
    }

    /** Starts the route timeout: the whole exchange takes at most {@code timeoutNanos}. */
    protected final void startTimeout(long timeoutNanos) {
        deadlines.start(this, timeoutNanos);
    }

    /** The loop's timeouts, which attempts' per-try timeouts use too. */
    protected final Deadlines deadlines() {
        return deadlines;
    }

    /** Starts an attempt on {@code host}, or answers overflow when the breakers allow no further request. */
    protected final void startAttempt(Host host) {
        tried.add(host);
        record.upstream(target, host.id());
        if (!target.breakers().tryStartRequest()) {
            target.metrics().requestOverflow();
            record.flag(ResponseFlag.UPSTREAM_OVERFLOW);
            overflowed();
            return;
        }
        attempt(host, retries != null && retries.takeGranted());
    }

    /**
     * Decides whether a failed attempt that the policy wants retried gets another one; a granted
     * retry is held until its attempt ends. Never when the request is not retriable, or
     * {@link #retryPossible()} says no.
     */
    protected final boolean grantRetry() {
        return retries != null && retryPossible() && retries.grant(record);
    }

    /**
     * Sends the request, nothing of which left for its last attempt (its connection never opened,
     * its write failed, or its host died while it waited), to a host not tried yet, at once and
     * without taking a retry: it is the same request's first delivery. Returns false when the
     * cluster has no such host, so that the caller falls back on the retry policy.
     */
    protected final boolean redispatch() {
        if (done) {
            return false;
        }
        Host host = target.otherHost(tried, this::avoided);
        if (host == null) {
            return false;
        }
        target.metrics().redispatch();
        startAttempt(host);
        return true;
    }

    /**
     * The pool for the attempt being started on {@code host}: its own, or when it is known down on
     * this event loop, the pool of another host not tried yet, which replaces it as tried ({@code
     * host}'s own when the cluster has no other: a connect then tells whether it is back).
     */
    protected final P pool(Host host) {
        P pool = pools.pool(target.cluster(), host);
        if (pool.hostDown()) {
            Host instead = insteadOfDown(host);
            if (instead != host) {
                pool = pools.pool(target.cluster(), instead);
            }
        }
        return pool;
    }

    private Host insteadOfDown(Host down) {
        Host other = target.otherHost(tried, this::avoided);
        if (other == null) {
            return down;
        }
        tried.set(tried.size() - 1, other);
        record.upstream(target, other.id());
        return other;
    }

    /** Whether {@code host} is known down on this event loop. */
    private boolean avoided(Host host) {
        return pools.hostDown(target.cluster(), host);
    }

    /** Waits a jittered backoff on the event loop, then retries on another host when there is one. */
    protected final void scheduleRetry() {
        long delay = retries.nextBackoffNanos();
        backingOff();
        backoff = loop.schedule(this::retryNow, delay, TimeUnit.NANOSECONDS);
    }

    private void retryNow() {
        backoff = null;
        if (done) {
            return;
        }
        Host host = target.retryHost(tried);
        if (host == null) {
            record.flag(ResponseFlag.NO_HEALTHY_UPSTREAM);
            target.metrics().noHealthyHost();
            noHostForRetry();
        } else {
            startAttempt(host);
        }
        afterTimer();
    }

    /** Whether the exchange ended. */
    protected final boolean done() {
        return done;
    }

    /**
     * Marks the exchange ended and stops its timers: the route timeout, a pending backoff, a
     * retry granted but never started.
     *
     * @return false when it had ended already
     */
    protected final boolean markDone() {
        if (done) {
            return false;
        }
        done = true;
        deadlines.cancel(this);
        if (backoff != null) {
            backoff.cancel(false);
            backoff = null;
        }
        if (retries != null) {
            retries.release();
        }
        return true;
    }

    /**
     * Starts an attempt on {@code host}; the breakers gave it a request.
     *
     * @param retry whether it also holds a granted retry of the breakers
     */
    protected abstract void attempt(Host host, boolean retry);

    /** The breakers allowed no further request: answer overflow. */
    protected abstract void overflowed();

    /** A retry found no host to go to: answer that none is healthy. */
    protected abstract void noHostForRetry();

    /** Whether the request can still be sent again; by default it can. */
    protected boolean retryPossible() {
        return true;
    }

    /** Called when a retry is scheduled, before its backoff. */
    protected void backingOff() {
    }

    /** Called after work done on a timer of this exchange (a retry's start), to flush what it wrote. */
    protected void afterTimer() {
    }
}
