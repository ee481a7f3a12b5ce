package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * When the gateway takes a host out of rotation because of how its real requests fail (passive
 * health checking), and for how long. A threshold of 0 turns that kind of detection off.
 *
 * @param consecutive5xx 5xx answers in a row, gateway-made failures (connect failure, reset,
 *     timeout) included, that eject a host
 * @param consecutiveGatewayFailure 502, 503 or 504 answers in a row, gateway-made failures
 *     included, that eject a host
 * @param consecutiveConnectFailure failed connection attempts in a row that eject a host
 * @param interval how often ejections that have run their time are ended
 * @param baseEjectionTime a host is ejected for this times the number of times it was ejected
 * @param maxEjectionTime the longest one ejection lasts however often the host was ejected
 * @param maxEjectionPercent the most hosts of the cluster ejected at once, in percent of its
 *     hosts; at least one host may always be ejected unless this is 0
 */
public record OutlierDetectionConfig(
        int consecutive5xx,
        int consecutiveGatewayFailure,
        int consecutiveConnectFailure,
        Duration interval,
        Duration baseEjectionTime,
        Duration maxEjectionTime,
        int maxEjectionPercent) {

    public OutlierDetectionConfig {
        requireNonNull(interval, "interval");
        requireNonNull(baseEjectionTime, "baseEjectionTime");
        requireNonNull(maxEjectionTime, "maxEjectionTime");
        if (maxEjectionPercent < 0 || maxEjectionPercent > 100) {
            throw new IllegalArgumentException("maxEjectionPercent: " + maxEjectionPercent + " (expected: 0..100)");
        }
        if (maxEjectionTime.compareTo(baseEjectionTime) < 0) {
            throw new InvalidFieldException("max_ejection_time", maxEjectionTime.toMillis()
                    + " ms (expected at least base_ejection_time, " + baseEjectionTime.toMillis() + " ms)");
        }
    }
}
