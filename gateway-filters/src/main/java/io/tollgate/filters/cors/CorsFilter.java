package io.tollgate.filters.cors;

import io.micrometer.core.instrument.Counter;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.FilterResponse;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.filters.FilterCounters;

/**
 * Cross-origin resource sharing as Envoy's CORS filter does it, for HTTP requests that carry an
 * {@code Origin}: a preflight ({@code OPTIONS} with {@code Access-Control-Request-Method}) from
 * an allowed origin is answered 200 by the gateway with the policy's headers and never goes
 * upstream; the response to any other request from an allowed origin gets
 * {@code Access-Control-Allow-Origin} (the origin itself) and the policy's credentials and exposed
 * headers. Requests from other origins, and RPC calls, pass untouched. Origins are counted as
 * {@code tollgate.filter.cors.origin_valid} or {@code .origin_invalid}, tagged by listener and route.
 */
final class CorsFilter implements StreamFilter {

    /** What the filter keeps for a request from an allowed origin. */
    private record Allowed(String origin, boolean preflight) {
    }

    private final CorsPolicy policy;
    private final Counter valid;
    private final Counter invalid;

    CorsFilter(CorsPolicy policy, FilterScope scope) {
        this.policy = policy;
        this.valid = FilterCounters.counter(scope, MetricNames.FILTER_CORS_ORIGIN_VALID);
        this.invalid = FilterCounters.counter(scope, MetricNames.FILTER_CORS_ORIGIN_INVALID);
    }

    @Override
    public FilterStatus onRequest(StreamFilterContext context) {
        if (context.rpc()) {
            return FilterStatus.CONTINUE;
        }
        FilterHeaders headers = context.requestHeaders();
        String origin = headers.get("origin");
        if (origin == null) {
            return FilterStatus.CONTINUE;
        }
        if (!policy.allows(origin)) {
            invalid.increment();
            return FilterStatus.CONTINUE;
        }
        valid.increment();
        boolean preflight = "OPTIONS".equals(context.method())
                && headers.get("access-control-request-method") != null;
        context.state(this, new Allowed(origin, preflight));
        if (preflight) {
            context.answer(200);
            return FilterStatus.STOP;
        }
        return FilterStatus.CONTINUE;
    }

    @Override
    public void onResponse(StreamFilterContext context, FilterResponse response) {
        Object kept = context.state(this);
        if (!(kept instanceof Allowed allowed) || !response.headers().writable()) {
            return;
        }
        FilterHeaders headers = response.headers();
        headers.set("access-control-allow-origin", allowed.origin());
        if (policy.allowCredentials()) {
            headers.set("access-control-allow-credentials", "true");
        }
        if (allowed.preflight()) {
            setIfGiven(headers, "access-control-allow-methods", policy.allowMethods());
            setIfGiven(headers, "access-control-allow-headers", policy.allowHeaders());
            setIfGiven(headers, "access-control-max-age", policy.maxAge());
        } else {
            setIfGiven(headers, "access-control-expose-headers", policy.exposeHeaders());
        }
    }

    private static void setIfGiven(FilterHeaders headers, String name, String value) {
        if (value != null) {
            headers.set(name, value);
        }
    }
}
