package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How the gateway probes each host of a cluster on its own, off the request path, to take a
 * dead host out of rotation before a request finds it.
 *
 * @param type the checker's registered name, e.g. {@code tcp}, {@code http} or {@code bolt}
 * @param interval the time between the end of one probe and the start of the next
 * @param timeout the longest one probe (connect included) may take before it counts as failed
 * @param jitter up to this much, drawn at random, is added to every interval, so that probes
 *     of many hosts spread out; zero for none
 * @param healthyThreshold passing probes in a row that bring an unhealthy host back
 * @param unhealthyThreshold failing probes in a row that take a healthy host out
 * @param http what an {@code http} probe asks and accepts; ignored by other types
 */
public record HealthCheckConfig(
        String type,
        Duration interval,
        Duration timeout,
        Duration jitter,
        int healthyThreshold,
        int unhealthyThreshold,
        HttpHealthCheckConfig http) {

    public HealthCheckConfig {
        requireNonNull(type, "type");
        requireNonNull(interval, "interval");
        requireNonNull(timeout, "timeout");
        requireNonNull(jitter, "jitter");
        requireNonNull(http, "http");
        if (healthyThreshold < 1 || unhealthyThreshold < 1) {
            throw new IllegalArgumentException("thresholds: " + healthyThreshold + "/" + unhealthyThreshold
                    + " (expected: >= 1)");
        }
    }

    /** This check with {@code settings} as its {@code http} settings. */
    public HealthCheckConfig withHttp(HttpHealthCheckConfig settings) {
        return new HealthCheckConfig(type, interval, timeout, jitter, healthyThreshold, unhealthyThreshold, settings);
    }
}
