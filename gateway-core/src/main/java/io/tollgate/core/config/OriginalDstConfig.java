package io.tollgate.core.config;

import java.time.Duration;

/**
 * The settings of a cluster of type {@code original_dst} (Envoy's {@code ORIGINAL_DST}): it has no
 * endpoints of its own; each connection a transparent listener accepted goes on to the address it
 * was sent to before the kernel redirected it, and each such address becomes a host of the cluster
 * while it is in use.
 *
 * @param maxHosts the most destinations the cluster keeps as hosts at once; a connection to one
 *     more while all of them are in use is refused (counted as {@code overflow})
 * @param hostIdleTimeout a destination no request or connection chose for this long is dropped
 * @param useHttpHeader whether an HTTP request's {@value #HTTP_HEADER} header (an IP literal and
 *     port) names its destination instead of the connection's original destination
 */
public record OriginalDstConfig(int maxHosts, Duration hostIdleTimeout, boolean useHttpHeader) {

    /** The header a request may name its destination with when {@link #useHttpHeader()} is on (Envoy's name). */
    public static final String HTTP_HEADER = "x-envoy-original-dst-host";
    /** How many destinations are kept unless {@code max_hosts} says otherwise. */
    public static final int DEFAULT_MAX_HOSTS = 1024;
    /** Envoy's default {@code cleanup_interval}. */
    public static final Duration DEFAULT_HOST_IDLE_TIMEOUT = Duration.ofSeconds(5);
    /** The settings when the cluster's {@code original_dst} block is absent. */
    public static final OriginalDstConfig DEFAULTS =
            new OriginalDstConfig(DEFAULT_MAX_HOSTS, DEFAULT_HOST_IDLE_TIMEOUT, false);

    public OriginalDstConfig {
        if (maxHosts < 1) {
            throw new InvalidFieldException("max_hosts", maxHosts + " (expected at least 1)");
        }
        if (hostIdleTimeout.isNegative() || hostIdleTimeout.isZero()) {
            throw new InvalidFieldException("host_idle_timeout", hostIdleTimeout + " (expected a positive duration)");
        }
    }
}
