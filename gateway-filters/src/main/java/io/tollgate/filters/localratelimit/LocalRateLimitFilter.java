package io.tollgate.filters.localratelimit;

import io.micrometer.core.instrument.Counter;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.FilterResponse;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.filters.FilterCounters;
import java.util.concurrent.TimeUnit;

/**
 * Takes a token for each request from its chain's bucket (or its descriptor's) and answers the
 * request when there is none: 429 with {@code x-tollgate-ratelimited: true} and the
 * {@code x-ratelimit-limit}, {@code -remaining} and {@code -reset} headers, gRPC
 * RESOURCE_EXHAUSTED (8) in trailers-only form, Bolt server busy or Dubbo thread pool exhausted
 * with the caller's id; the access log shows {@code RL}. One instance per chain, shared by every
 * event loop through its lock-free buckets.
 */
final class LocalRateLimitFilter implements StreamFilter {

    /** The reason limited requests are counted under and answered with, as Envoy's body says. */
    static final String REASON = "local_rate_limited";
    /** The header a limited HTTP response carries, as Envoy's {@code x-envoy-ratelimited}. */
    static final String LIMITED_HEADER = "x-tollgate-ratelimited";
    private static final int GRPC_RESOURCE_EXHAUSTED = 8;
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final Object LIMITED = new Object();

    private final BucketShape shape;
    private final String limit;
    private final TokenBucket bucket;
    private final DescriptorBuckets descriptorBuckets;
    private final String header;
    private final Counter allowed;
    private final Counter limited;

    LocalRateLimitFilter(LocalRateLimitSettings settings, FilterScope scope) {
        long now = System.nanoTime();
        this.shape = new BucketShape(settings.maxTokens(), settings.tokensPerFill(),
                TimeUnit.NANOSECONDS.convert(settings.fillInterval()), now, System::nanoTime);
        this.limit = Long.toString(settings.maxTokens());
        if (settings.descriptor() == null) {
            this.bucket = new TokenBucket(shape, now);
            this.descriptorBuckets = null;
            this.header = null;
        } else {
            this.bucket = null;
            this.descriptorBuckets = new DescriptorBuckets(shape, settings.maxDescriptors());
            this.header = settings.descriptor().header();
        }
        this.allowed = FilterCounters.counter(scope, MetricNames.FILTER_LOCAL_RATE_LIMIT_ALLOWED);
        this.limited = FilterCounters.counter(scope, MetricNames.FILTER_LOCAL_RATE_LIMIT_LIMITED);
    }

    @Override
    public FilterStatus onRequest(StreamFilterContext context) {
        TokenBucket chosen = bucket != null ? bucket : descriptorBuckets.bucket(descriptor(context));
        if (chosen.tryTake()) {
            allowed.increment();
            return FilterStatus.CONTINUE;
        }
        limited.increment();
        context.flag(ResponseFlag.RATE_LIMITED);
        context.state(this, LIMITED);
        context.respond(429, GRPC_RESOURCE_EXHAUSTED, REASON);
        return FilterStatus.CONTINUE;
    }

    @Override
    public void onResponse(StreamFilterContext context, FilterResponse response) {
        if (response.local() && response.headers().writable() && context.state(this) == LIMITED) {
            FilterHeaders headers = response.headers();
            headers.set(LIMITED_HEADER, "true");
            headers.set("x-ratelimit-limit", limit);
            headers.set("x-ratelimit-remaining", "0");
            headers.set("x-ratelimit-reset", Long.toString((shape.untilNextFill(shape.now()) + SECOND - 1) / SECOND));
        }
    }

    private String descriptor(StreamFilterContext context) {
        String value = header == null ? context.clientAddress() : context.request().header(header);
        return value == null ? "" : value;
    }
}
