package io.tollgate.filters.ratelimit;

import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.Status;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.FilterResponse;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.filters.grpcservice.GrpcChannels;
import io.tollgate.filters.grpcservice.PolicyCounters;
import io.tollgate.filters.grpcservice.PolicyCall;
import io.tollgate.filters.trace.export.SharedExporters;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks the rate limit service about each request's descriptors and holds the request until it
 * answers: within the limits, the request goes on (with the headers the service adds); over a
 * limit, it is answered 429 (or {@code rate_limited_status}) with {@code x-envoy-ratelimited: true},
 * gRPC RESOURCE_EXHAUSTED, Bolt server busy or Dubbo thread pool exhausted with the caller's id,
 * and {@code RL} in the access log. A request none of whose descriptors applies is not held. A
 * call that fails or passes its timeout lets the request through unless {@code failure_mode_deny}
 * (then 500 and {@code RLSE}). Counted as Envoy counts: ok, over_limit, error (timeouts included),
 * timeout, failure_mode_allowed.
 */
final class RateLimitFilter implements StreamFilter {

    /** The reason limited requests are answered with. */
    static final String REASON = "rate_limited";
    static final String ERROR_REASON = "rate_limit_service_error";
    /** The header a limited answer carries, as Envoy's. */
    static final String LIMITED_HEADER = "x-envoy-ratelimited";
    private static final int GRPC_RESOURCE_EXHAUSTED = 8;

    private final RateLimitSettings settings;
    private final SharedExporters.Handle<GrpcChannels.OpenChannel> channel;
    private final PolicyCounters counters;

    RateLimitFilter(RateLimitSettings settings, FilterScope scope) {
        this.settings = settings;
        this.channel = GrpcChannels.acquire(settings.service().target());
        this.counters = new PolicyCounters(scope, "tollgate.filter.rate_limit", "over_limit");
    }

    /** One request's call, then the headers its answer gets. */
    private static final class Pending {
        PolicyCall<RateLimitResponse> call;
        boolean decided;
        List<HeaderValue> responseHeaders = List.of();
    }

    @Override
    public FilterStatus onRequest(StreamFilterContext context) {
        RateLimitRequest.Builder request = RateLimitRequest.newBuilder().setDomain(settings.domain()).setHitsAddend(1);
        for (List<RateLimitAction> actions : settings.rateLimits()) {
            RateLimitDescriptor descriptor = descriptor(actions, context);
            if (descriptor != null) {
                request.addDescriptors(descriptor);
            }
        }
        if (request.getDescriptorsCount() == 0) {
            return FilterStatus.CONTINUE;
        }
        Pending pending = new Pending();
        context.state(this, pending);
        pending.call = PolicyCall.start(channel.exporter().channel(), RateLimitServiceGrpc.getShouldRateLimitMethod(),
                request.build(), settings.service().timeout(), context.executor(),
                (answer, status) -> answered(context, pending, answer, status));
        return FilterStatus.STOP;
    }

    /** The descriptor {@code actions} make for the request, or null when one of them drops it. */
    private static RateLimitDescriptor descriptor(List<RateLimitAction> actions, StreamFilterContext context) {
        RateLimitDescriptor.Builder descriptor = RateLimitDescriptor.newBuilder();
        for (RateLimitAction action : actions) {
            RateLimitAction.Entry entry = action.entry(context);
            if (entry == RateLimitAction.Entry.NONE) {
                return null;
            }
            if (entry != RateLimitAction.Entry.SKIPPED) {
                descriptor.addEntries(RateLimitDescriptor.Entry.newBuilder().setKey(entry.key()).setValue(entry.value()));
            }
        }
        return descriptor.getEntriesCount() == 0 ? null : descriptor.build();
    }

    private void answered(StreamFilterContext context, Pending pending, RateLimitResponse answer, Status status) {
        pending.decided = true;
        if (answer == null || answer.getOverallCode() == RateLimitResponse.Code.UNKNOWN) {
            failed(context, status != null && status.getCode() == Status.Code.DEADLINE_EXCEEDED);
            return;
        }
        pending.responseHeaders = responseHeaders(answer);
        if (answer.getOverallCode() == RateLimitResponse.Code.OVER_LIMIT) {
            counters.refused();
            context.flag(ResponseFlag.RATE_LIMITED);
            context.respond(settings.rateLimitedStatus(), GRPC_RESOURCE_EXHAUSTED, REASON);
            return;
        }
        counters.ok();
        FilterHeaders headers = context.requestHeaders();
        if (headers.writable()) {
            for (HeaderValue header : answer.getRequestHeadersToAddList()) {
                headers.set(header.getKey(), header.getValue());
            }
        }
        context.resume();
    }

    private void failed(StreamFilterContext context, boolean timedOut) {
        counters.failed(timedOut);
        if (settings.failureModeDeny()) {
            context.flag(ResponseFlag.RATE_LIMIT_SERVICE_ERROR);
            context.respond(500, ERROR_REASON);
        } else {
            counters.failureModeAllowed();
            context.resume();
        }
    }

    /** The service's response headers, and the {@code x-ratelimit-*} ones of its tightest limit if enabled. */
    private List<HeaderValue> responseHeaders(RateLimitResponse answer) {
        List<HeaderValue> headers = new ArrayList<>(answer.getResponseHeadersToAddList());
        if (answer.getOverallCode() == RateLimitResponse.Code.OVER_LIMIT) {
            headers.add(HeaderValue.newBuilder().setKey(LIMITED_HEADER).setValue("true").build());
        }
        if (settings.rateLimitHeaders()) {
            RateLimitHeaders.add(answer, headers);
        }
        return headers;
    }

    @Override
    public void onResponse(StreamFilterContext context, FilterResponse response) {
        if (context.state(this) instanceof Pending pending && response.headers().writable()) {
            for (HeaderValue header : pending.responseHeaders) {
                response.headers().set(header.getKey(), header.getValue());
            }
        }
    }

    @Override
    public void onComplete(StreamFilterContext context, int status) {
        if (context.state(this) instanceof Pending pending && !pending.decided) {
            pending.decided = true;
            pending.call.cancel();
        }
    }
}
