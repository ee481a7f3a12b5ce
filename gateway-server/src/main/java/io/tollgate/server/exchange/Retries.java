package io.tollgate.server.exchange;

import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.router.retry.RetryPolicy;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The retries of one exchange under its route's policy: how many were made, whether one is granted
 * and held from the circuit breakers (until its attempt, which then holds it, or the exchange's
 * end), and the jittered backoff before the next. Confined to the exchange's event loop.
 */
public final class Retries {

    private final RetryPolicy policy;
    private final ExchangeTarget target;
    private int count;
    private boolean granted;

    /** @param policy a policy that allows at least one retry */
    public Retries(RetryPolicy policy, ExchangeTarget target) {
        this.policy = policy;
        this.target = target;
    }

    public RetryPolicy policy() {
        return policy;
    }

    /** How many retries were scheduled so far. */
    public int count() {
        return count;
    }

    /**
     * Decides whether a failed attempt that the policy wants retried gets another one: retries
     * left, and the retry budget or {@code max_retries} of the breakers not used up. A refusal is
     * flagged on {@code record}.
     */
    public boolean grant(ExchangeRecord record) {
        if (!policy.grant(count, target.breakers(), target.metrics())) {
            record.flag(ResponseFlag.UPSTREAM_RETRY_LIMIT_EXCEEDED);
            return false;
        }
        granted = true;
        return true;
    }

    /** Whether a granted retry waits for its attempt; the attempt takes it over. */
    public boolean takeGranted() {
        boolean taken = granted;
        granted = false;
        return taken;
    }

    /** Counts the retry now scheduled and returns the backoff to wait before it, in nanoseconds. */
    public long nextBackoffNanos() {
        count++;
        target.metrics().retry();
        return policy.backoffNanos(count, ThreadLocalRandom.current());
    }

    /** Gives back a granted retry that no attempt took over; the exchange is ending. */
    public void release() {
        if (granted) {
            granted = false;
            target.breakers().retryFinished();
        }
    }
}
