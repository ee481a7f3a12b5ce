package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How a host added to a running cluster ramps up to its full share of requests, so that a cold
 * JVM or cache is not flooded at once (Envoy's {@code slow_start_config}). During the window a
 * host's weight is scaled by {@code max(minWeightPercent / 100, (elapsed / window) ^ (1 / aggression))}.
 *
 * @param window how long the ramp lasts
 * @param aggression how fast the ramp rises: 1 is linear, above 1 rises fast early, below 1 late
 * @param minWeightPercent the least share of its weight a new host gets, 1..100
 */
public record SlowStartConfig(Duration window, double aggression, int minWeightPercent) {

    public SlowStartConfig {
        requireNonNull(window, "window");
        if (window.isZero() || window.isNegative()) {
            throw new IllegalArgumentException("window: " + window + " (expected: positive)");
        }
        if (!(aggression > 0) || Double.isInfinite(aggression)) {
            throw new IllegalArgumentException("aggression: " + aggression + " (expected: > 0)");
        }
        if (minWeightPercent < 1 || minWeightPercent > 100) {
            throw new IllegalArgumentException("minWeightPercent: " + minWeightPercent + " (expected: 1..100)");
        }
    }
}
