package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Limits and timeouts of downstream HTTP/1.1 connections, and the path normalization of every
 * HTTP request of the listener (HTTP/1.1 and HTTP/2).
 *
 * @param maxInitialLineBytes longest request line accepted (414 past it)
 * @param maxHeaderBytes largest header block accepted (431 past it)
 * @param maxRequestBodyBytes largest request body accepted (413 past it); bodies stream through
 *     the gateway, so this is a policy limit, not a buffer size
 * @param idleTimeout a keep-alive connection with no request for this long is closed
 * @param requestHeadersTimeout a request head not complete this long after its first byte is
 *     answered 408 and its connection closed
 * @param paths how request paths are normalized before routing
 */
public record HttpOptions(
        int maxInitialLineBytes,
        int maxHeaderBytes,
        long maxRequestBodyBytes,
        Duration idleTimeout,
        Duration requestHeadersTimeout,
        PathNormalization paths) {

    /** The defaults, used when the listener says nothing. */
    public static final HttpOptions DEFAULTS = new HttpOptions(
            8192, 65536, 100L * 1024 * 1024, Duration.ofSeconds(60), Duration.ofSeconds(10));

    public HttpOptions {
        requireNonNull(paths, "paths");
    }

    /** Options whose paths are routed as received. */
    public HttpOptions(int maxInitialLineBytes, int maxHeaderBytes, long maxRequestBodyBytes, Duration idleTimeout,
            Duration requestHeadersTimeout) {
        this(maxInitialLineBytes, maxHeaderBytes, maxRequestBodyBytes, idleTimeout, requestHeadersTimeout,
                PathNormalization.OFF);
    }
}
