package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How the gateway drains its downstream connections when it stops, is told to drain, or loses a
 * listener to a reload: how long requests in flight may take to finish before the connections
 * still open are closed anyway (Envoy's {@code --drain-time-s}, MOSN's graceful timeout).
 *
 * @param timeout the longest a drain waits for requests in flight; positive
 */
public record DrainConfig(Duration timeout) {

    /** The default: requests in flight have 30 s to finish. */
    public static final DrainConfig DEFAULTS = new DrainConfig(Duration.ofSeconds(30));

    public DrainConfig {
        requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout: " + timeout + " (expected: > 0)");
        }
    }
}
