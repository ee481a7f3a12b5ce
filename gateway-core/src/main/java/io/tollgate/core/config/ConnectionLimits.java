package io.tollgate.core.config;

import java.time.Duration;

/**
 * How long a listener waits for a new connection's protocol and how many connections it holds at
 * once, so that silent or trickling clients cannot hold descriptors without bound.
 *
 * @param protocolDetectionTimeout a connection on a listener serving several protocols whose
 *     first bytes name none within this time is closed
 * @param maxConnections the most connections open on this listener at once; past it a new
 *     connection is closed at once; 0 means no limit of the listener's own
 */
public record ConnectionLimits(Duration protocolDetectionTimeout, int maxConnections) {

    /** Envoy's listener filter timeout is 15 s; a gateway in front of payments waits 10 s. */
    public static final Duration DEFAULT_PROTOCOL_DETECTION_TIMEOUT = Duration.ofSeconds(10);

    /** The defaults, used when the listener says nothing: 10 s, no limit. */
    public static final ConnectionLimits DEFAULTS = new ConnectionLimits(DEFAULT_PROTOCOL_DETECTION_TIMEOUT, 0);

    public ConnectionLimits {
        if (protocolDetectionTimeout.isNegative() || protocolDetectionTimeout.isZero()) {
            throw new IllegalArgumentException("protocolDetectionTimeout: " + protocolDetectionTimeout
                    + " (expected: > 0)");
        }
        if (maxConnections < 0) {
            throw new IllegalArgumentException("maxConnections: " + maxConnections + " (expected: >= 0)");
        }
    }
}
