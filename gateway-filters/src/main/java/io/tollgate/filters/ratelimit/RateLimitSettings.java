package io.tollgate.filters.ratelimit;

import io.tollgate.filters.grpcservice.GrpcServiceSettings;
import java.time.Duration;
import java.util.List;

/**
 * What a {@code rate_limit} entry configures: the service, the domain its limits are kept under,
 * the descriptors each request is counted by, and what a failed call means.
 *
 * @param service the rate limit service
 * @param domain the descriptors' domain on the service
 * @param rateLimits each one descriptor, its actions in order (Envoy's route {@code rate_limits})
 * @param failureModeDeny whether a request is refused (500) when the service cannot be asked
 * @param rateLimitedStatus the HTTP status of a limited request
 * @param rateLimitHeaders whether answers carry {@code x-ratelimit-limit}, {@code -remaining} and
 *     {@code -reset} from the service's answer (Envoy's {@code DRAFT_VERSION_03})
 */
record RateLimitSettings(GrpcServiceSettings service, String domain, List<List<RateLimitAction>> rateLimits,
        boolean failureModeDeny, int rateLimitedStatus, boolean rateLimitHeaders) {

    /** Envoy's default timeout of a call to the rate limit service. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(20);
}
