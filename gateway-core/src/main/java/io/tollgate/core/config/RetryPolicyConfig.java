package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/**
 * When and how often a route retries a failed upstream attempt, modelled on Envoy's retry policy:
 * which failures count, how many retries, how long one attempt may take and how long to wait
 * between attempts.
 *
 * @param retryOn the failures that are retried; none means nothing is
 * @param retriableStatusCodes the statuses retried under {@link Condition#RETRIABLE_STATUS_CODES}
 * @param numRetries the most retries of one request (attempts are one more)
 * @param perTryTimeout the longest one attempt may take, or empty for the route timeout alone
 * @param baseInterval the first backoff cap; each further retry doubles it
 * @param maxInterval the largest backoff cap
 * @param retryNonIdempotent whether HTTP methods other than GET, HEAD, OPTIONS, PUT, DELETE and
 *     TRACE are retried too
 */
public record RetryPolicyConfig(
        Set<Condition> retryOn,
        Set<Integer> retriableStatusCodes,
        int numRetries,
        Optional<Duration> perTryTimeout,
        Duration baseInterval,
        Duration maxInterval,
        boolean retryNonIdempotent) {

    /** Envoy's default number of retries. */
    public static final int DEFAULT_NUM_RETRIES = 1;
    /** Envoy's default base backoff interval. */
    public static final Duration DEFAULT_BASE_INTERVAL = Duration.ofMillis(25);

    /** A kind of failure that may be retried, named as in the configuration file. */
    public enum Condition {
        /** No connection to the host could be made. */
        CONNECT_FAILURE("connect-failure"),
        /** The connection or stream was reset, closed or timed out before a response began. */
        RESET("reset"),
        /** Any 5xx answer, and everything {@link #RESET} and {@link #CONNECT_FAILURE} cover. */
        SERVER_ERROR("5xx"),
        /** A 502, 503 or 504 answer, and everything {@link #RESET} and {@link #CONNECT_FAILURE} cover. */
        GATEWAY_ERROR("gateway-error"),
        /** An answer whose status is listed in {@code retriable_status_codes}. */
        RETRIABLE_STATUS_CODES("retriable-status-codes"),
        /** A gRPC trailers-only answer with status UNAVAILABLE (14). */
        UNAVAILABLE("unavailable"),
        /**
         * An RPC answer that reports a busy host (Bolt SERVER_THREADPOOL_BUSY, Dubbo thread pool
         * exhausted): the host refused the request unprocessed. Also called {@code bolt-busy}, its
         * name before other RPC protocols came.
         */
        RPC_BUSY("rpc-busy", "bolt-busy"),
        /**
         * An RPC answer that reports a timeout (Bolt TIMEOUT, Dubbo client or server timeout), or an
         * RPC attempt past its per-try timeout. Also called {@code bolt-timeout}.
         */
        RPC_TIMEOUT("rpc-timeout", "bolt-timeout");

        private final String configName;
        private final String alias;

        Condition(String configName) {
            this(configName, null);
        }

        Condition(String configName, String alias) {
            this.configName = configName;
            this.alias = alias;
        }

        /** The name used in the configuration file. */
        public String configName() {
            return configName;
        }

        /** The condition called {@code name} (or its older alias) in the configuration file, or empty. */
        public static Optional<Condition> named(String name) {
            return Arrays.stream(values()).filter(c -> c.configName.equals(name) || name.equals(c.alias)).findFirst();
        }
    }

    public RetryPolicyConfig {
        retryOn = Set.copyOf(retryOn);
        retriableStatusCodes = Set.copyOf(retriableStatusCodes);
        requireNonNull(perTryTimeout, "perTryTimeout");
        requireNonNull(baseInterval, "baseInterval");
        requireNonNull(maxInterval, "maxInterval");
        if (numRetries < 0) {
            throw new IllegalArgumentException("numRetries: " + numRetries + " (expected: >= 0)");
        }
        if (retryOn.contains(Condition.RETRIABLE_STATUS_CODES) && retriableStatusCodes.isEmpty()) {
            throw new InvalidFieldException("retriable_status_codes",
                    "must list at least one status (retry_on has retriable-status-codes)");
        }
        if (maxInterval.compareTo(baseInterval) < 0) {
            throw new InvalidFieldException("retry_back_off.max_interval", maxInterval.toMillis()
                    + " ms (expected at least base_interval, " + baseInterval.toMillis() + " ms)");
        }
    }
}
