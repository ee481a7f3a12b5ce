package io.tollgate.filters.trace;

import io.micrometer.core.instrument.Counter;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;

/**
 * Gives each request a span of the gateway's own: the trace context the request carries (W3C,
 * B3, SOFA) is rewritten so the upstream sees the gateway's span as its parent, or a new trace is
 * started; the access log entry gets the trace id and the span id. With {@code export} on, the
 * finished span, and a child span of each upstream attempt ({@link ExchangeSpan}), go to the
 * {@link SpanExporter} when the trace is sampled or the request failed with a 5xx (or the RPC
 * status meaning one).
 *
 * <p>A request whose headers cannot be changed (an RPC protocol whose codec cannot rewrite its
 * header map) passes unchanged and is counted in {@code tollgate.filter.trace.unchanged}.
 */
final class TraceFilter implements StreamFilter {

    private final TracePropagation propagation;
    private final SpanExporter exporter;
    private final Counter unchanged;

    /** @param exporter where finished spans go, or null for nowhere */
    TraceFilter(TracePropagation propagation, SpanExporter exporter, Counter unchanged) {
        this.propagation = propagation;
        this.exporter = exporter;
        this.unchanged = unchanged;
    }

    @Override
    public FilterStatus onRequest(StreamFilterContext context) {
        FilterHeaders headers = context.requestHeaders();
        if (!headers.writable()) {
            unchanged.increment();
            return FilterStatus.CONTINUE;
        }
        TraceSpan span = propagation.apply(headers);
        context.trace(span.traceId(), span.spanId());
        if (exporter != null) {
            ExchangeSpan exchange = new ExchangeSpan(span, context);
            context.state(this, exchange);
            context.listenToAttempts(exchange);
        }
        return FilterStatus.CONTINUE;
    }

    @Override
    public void onComplete(StreamFilterContext context, int status) {
        if (exporter != null && context.state(this) instanceof ExchangeSpan exchange
                && (exchange.sampled() || status >= 500)) {
            exchange.finish(context, status, exporter);
        }
    }
}
