package io.tollgate.filters.ratelimit;

import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import java.util.List;

/**
 * The {@code x-ratelimit-limit}, {@code x-ratelimit-remaining} and {@code x-ratelimit-reset}
 * headers of a rate limit service's answer (the IETF draft 03 that Envoy's
 * {@code enable_x_ratelimit_headers: DRAFT_VERSION_03} follows), from the descriptor status
 * closest to its limit.
 */
final class RateLimitHeaders {

    private RateLimitHeaders() {
    }

    /** Adds the headers to {@code headers} when a status of {@code answer} has a current limit. */
    static void add(RateLimitResponse answer, List<HeaderValue> headers) {
        RateLimitResponse.DescriptorStatus tightest = null;
        for (RateLimitResponse.DescriptorStatus status : answer.getStatusesList()) {
            if (status.hasCurrentLimit()
                    && (tightest == null || status.getLimitRemaining() < tightest.getLimitRemaining())) {
                tightest = status;
            }
        }
        if (tightest == null) {
            return;
        }
        RateLimitResponse.RateLimit limit = tightest.getCurrentLimit();
        headers.add(header("x-ratelimit-limit", limit.getRequestsPerUnit() + ", " + limit.getRequestsPerUnit()
                + ";w=" + windowSeconds(limit.getUnit())));
        headers.add(header("x-ratelimit-remaining", Integer.toString(tightest.getLimitRemaining())));
        if (tightest.hasDurationUntilReset()) {
            headers.add(header("x-ratelimit-reset", Long.toString(tightest.getDurationUntilReset().getSeconds())));
        }
    }

    private static long windowSeconds(RateLimitResponse.RateLimit.Unit unit) {
        return switch (unit) {
            case SECOND -> 1;
            case MINUTE -> 60;
            case HOUR -> 3600;
            case DAY -> 86_400;
            case WEEK -> 604_800;
            case MONTH -> 2_592_000;
            case YEAR -> 31_536_000;
            default -> 0;
        };
    }

    private static HeaderValue header(String name, String value) {
        return HeaderValue.newBuilder().setKey(name).setValue(value).build();
    }
}
