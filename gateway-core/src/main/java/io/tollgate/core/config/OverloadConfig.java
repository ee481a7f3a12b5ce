package io.tollgate.core.config;

import java.time.Duration;

/**
 * The process's protection against running out of memory or descriptors (Envoy's overload
 * manager): a limit on downstream connections across all listeners, and the resource use past
 * which the gateway refuses new connections and sheds new requests until it falls back below.
 *
 * @param maxConnections the most downstream connections open at once across every listener;
 *     past it a new connection is closed at once; 0 means no fixed limit
 * @param heapThreshold the share of the maximum heap still in use after the last garbage
 *     collection past which the gateway is overloaded, in (0, 1]; 1 turns the check off
 * @param fdThreshold the share of the process's descriptor limit open past which the gateway is
 *     overloaded, in (0, 1]; 1 turns the check off
 * @param checkInterval how often the resources are looked at
 */
public record OverloadConfig(int maxConnections, double heapThreshold, double fdThreshold, Duration checkInterval) {

    /** The defaults: no fixed connection limit, overloaded past 95 % of heap or descriptors, checked every second. */
    public static final OverloadConfig DEFAULTS = new OverloadConfig(0, 0.95, 0.95, Duration.ofSeconds(1));

    public OverloadConfig {
        if (maxConnections < 0) {
            throw new IllegalArgumentException("maxConnections: " + maxConnections + " (expected: >= 0)");
        }
        checkShare("heapThreshold", heapThreshold);
        checkShare("fdThreshold", fdThreshold);
        if (checkInterval.isNegative() || checkInterval.isZero()) {
            throw new IllegalArgumentException("checkInterval: " + checkInterval + " (expected: > 0)");
        }
    }

    private static void checkShare(String name, double value) {
        if (!(value > 0 && value <= 1)) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: > 0 and <= 1)");
        }
    }
}
