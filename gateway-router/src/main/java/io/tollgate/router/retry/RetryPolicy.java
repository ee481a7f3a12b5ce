package io.tollgate.router.retry;

import static java.util.Objects.requireNonNull;

import io.tollgate.core.config.RetryPolicyConfig;
import io.tollgate.core.config.RetryPolicyConfig.Condition;
import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.router.breaker.CircuitBreakers;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * A route's retry policy compiled for the request path: which failures of an attempt are worth
 * another attempt, how many, and how long to back off before each. Immutable and shared by every
 * event loop; the randomness of the backoff is passed in, so that tests can seed it.
 */
public final class RetryPolicy {

    /** The HTTP methods that may be sent twice without changing the outcome (RFC 9110 section 9.2.2). */
    private static final Set<String> IDEMPOTENT_METHODS = Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE");
    private static final int GRPC_UNAVAILABLE = 14;

    private final Set<Condition> retryOn;
    private final Set<Integer> retriableStatusCodes;
    private final int numRetries;
    private final long perTryTimeoutNanos;
    private final long baseIntervalNanos;
    private final long maxIntervalNanos;
    private final boolean retryNonIdempotent;

    public RetryPolicy(RetryPolicyConfig config) {
        requireNonNull(config, "config");
        this.retryOn = config.retryOn().isEmpty() ? EnumSet.noneOf(Condition.class) : EnumSet.copyOf(config.retryOn());
        this.retriableStatusCodes = config.retriableStatusCodes();
        this.numRetries = config.numRetries();
        this.perTryTimeoutNanos = config.perTryTimeout().map(Duration::toNanos).orElse(0L);
        this.baseIntervalNanos = config.baseInterval().toNanos();
        this.maxIntervalNanos = config.maxInterval().toNanos();
        this.retryNonIdempotent = config.retryNonIdempotent();
    }

    /** The most retries of one request. */
    public int numRetries() {
        return numRetries;
    }

    /** The longest one attempt may take in nanoseconds, or 0 when only the route timeout applies. */
    public long perTryTimeoutNanos() {
        return perTryTimeoutNanos;
    }

    /**
     * Whether a request with this method may be retried at all. A gRPC call is always a POST, so
     * for it the retry conditions alone decide.
     */
    public boolean allowsMethod(String method, boolean grpc) {
        return grpc || retryNonIdempotent || IDEMPOTENT_METHODS.contains(method);
    }

    /** Whether an attempt that could not connect is retried. */
    public boolean retriesConnectFailure() {
        return retryOn.contains(Condition.CONNECT_FAILURE) || retriesReset();
    }

    /** Whether an attempt reset, closed or timed out before its response began is retried. */
    public boolean retriesReset() {
        return retryOn.contains(Condition.RESET) || retryOn.contains(Condition.SERVER_ERROR)
                || retryOn.contains(Condition.GATEWAY_ERROR);
    }

    /** Whether an attempt answered with HTTP {@code status} is retried. */
    public boolean retriesStatus(int status) {
        if (status >= 500 && status <= 599 && retryOn.contains(Condition.SERVER_ERROR)) {
            return true;
        }
        if ((status == 502 || status == 503 || status == 504) && retryOn.contains(Condition.GATEWAY_ERROR)) {
            return true;
        }
        return retryOn.contains(Condition.RETRIABLE_STATUS_CODES) && retriableStatusCodes.contains(status);
    }

    /** Whether a gRPC trailers-only answer with {@code grpcStatus} is retried. */
    public boolean retriesGrpcStatus(int grpcStatus) {
        return grpcStatus == GRPC_UNAVAILABLE && retryOn.contains(Condition.UNAVAILABLE);
    }

    /** Whether an answer saying the host is too busy to take the request (Bolt status 4) is retried. */
    public boolean retriesBusy() {
        return retryOn.contains(Condition.RPC_BUSY);
    }

    /**
     * Whether a Bolt attempt that timed out is retried: answered with status TIMEOUT (7) by the
     * host, or past its per-try timeout.
     */
    public boolean retriesRpcTimeout() {
        return retryOn.contains(Condition.RPC_TIMEOUT);
    }

    /**
     * Grants retry number {@code retriesSoFar + 1} of a request when the policy has one left and
     * the breakers have room for it (the retry budget, or {@code max_retries}); a refusal is
     * counted in {@code metrics}. A granted retry is taken from {@code breakers}: the caller MUST
     * give it back once the retry's attempt ends (or the request ends before it starts).
     */
    public boolean grant(int retriesSoFar, CircuitBreakers breakers, ClusterMetrics metrics) {
        if (retriesSoFar >= numRetries) {
            metrics.retryLimitExceeded();
            return false;
        }
        if (!breakers.tryStartRetry()) {
            metrics.retryOverflow();
            return false;
        }
        return true;
    }

    /**
     * How long to wait before retry number {@code retry} (1 for the first): exponential backoff
     * with full jitter, a uniform draw below {@code base * 2^(retry - 1)} capped at the maximum
     * interval.
     */
    public long backoffNanos(int retry, RandomGenerator random) {
        if (retry < 1) {
            throw new IllegalArgumentException("retry: " + retry + " (expected: >= 1)");
        }
        long cap = baseIntervalNanos;
        for (int i = 1; i < retry && cap < maxIntervalNanos; i++) {
            cap = cap > maxIntervalNanos / 2 ? maxIntervalNanos : cap * 2;
        }
        return random.nextLong(Math.min(cap, maxIntervalNanos));
    }
}
