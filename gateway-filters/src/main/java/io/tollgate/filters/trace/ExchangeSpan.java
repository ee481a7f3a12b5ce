package io.tollgate.filters.trace;

import io.tollgate.core.filter.AttemptListener;
import io.tollgate.core.filter.StreamFilterContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The span of one request being exported, from the filter's start to the request's end, and the
 * child span of each of its upstream attempts (kind {@code CLIENT}, a span id of its own, the
 * exchange's span as parent: a retry is a second child). Kept only for requests whose filter
 * exports; confined to the request's event loop.
 */
final class ExchangeSpan implements AttemptListener {

    private final TraceSpan span;
    private final long epochMillis = System.currentTimeMillis();
    private final long nanos = System.nanoTime();
    // read now: an RPC frame's service and method are gone from it once the call completes
    private final boolean rpc;
    private final String method;
    private final String service;
    private final String path;
    private final List<Attempt> attempts = new ArrayList<>(1);
    private long attemptStart;

    ExchangeSpan(TraceSpan span, StreamFilterContext context) {
        this.span = span;
        this.rpc = context.rpc();
        this.method = context.method();
        this.service = rpc ? context.service() : null;
        this.path = rpc ? null : context.request().path();
    }

    boolean sampled() {
        return span.sampled();
    }

    @Override
    public void attemptStarted() {
        attemptStart = System.nanoTime();
    }

    @Override
    public void attemptEnded(String host, int status) {
        attempts.add(new Attempt(TraceIds.newSpanId(), attemptStart, System.nanoTime(), host, status));
    }

    /** Hands the exchange's span, then its attempts', to {@code exporter}. */
    void finish(StreamFilterContext context, int status, SpanExporter exporter) {
        String name = rpc ? service + "/" + method : method + " " + path;
        long startMicros = TimeUnit.MILLISECONDS.toMicros(epochMillis);
        exporter.export(new FinishedSpan(span, name, context.listenerName(), context.routeName(), startMicros,
                TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - nanos), status, context.upstreamHost(),
                context.clientAddress(), context.protocol(), rpc, method, service, path, 0));
        for (int i = 0; i < attempts.size(); i++) {
            Attempt a = attempts.get(i);
            // the last attempt of a request that ended well without an answer of its own: a oneway call
            int attemptStatus = a.status == 0 && i == attempts.size() - 1 && status > 0 && status < 500 ? status
                    : a.status;
            exporter.export(new FinishedSpan(new TraceSpan(span.traceId(), a.spanId, span.spanId(), span.sampled()),
                    name, context.listenerName(), context.routeName(),
                    startMicros + TimeUnit.NANOSECONDS.toMicros(a.startNanos - nanos),
                    TimeUnit.NANOSECONDS.toMicros(a.endNanos - a.startNanos), attemptStatus, a.host, null,
                    context.protocol(), rpc, method, service, path, i + 1));
        }
    }

    /** One upstream attempt, ended. */
    private record Attempt(String spanId, long startNanos, long endNanos, String host, int status) {
    }
}
