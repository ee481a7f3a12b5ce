package io.tollgate.filters.trace;

import io.tollgate.core.filter.FilterHeaders;
import java.util.List;

/**
 * Puts the gateway's span into a request's trace context, in every format the request carries:
 * <ul>
 *   <li>W3C {@code traceparent}: the trace id and flags kept, the parent id replaced by the gateway's
 *       span id; {@code tracestate} carried as it is;</li>
 *   <li>B3 headers: {@code x-b3-spanid} replaced by the gateway's span id and {@code x-b3-parentspanid}
 *       set to the caller's; trace id and sampling kept;</li>
 *   <li>B3 single {@code b3}: the same inside the one header;</li>
 *   <li>SOFA: {@code rpc_trace_context.sofaRpcId} becomes its first child ({@code 0.1} -> {@code 0.1.1}),
 *       the trace id kept.</li>
 * </ul>
 * A request that carries no valid context starts a new trace, written in the formats configured
 * for new traces. A malformed header counts as absent and is replaced only if a new trace is
 * started in its format.
 */
final class TracePropagation {

    static final String TRACEPARENT = "traceparent";
    static final String B3_TRACE_ID = "x-b3-traceid";
    static final String B3_SPAN_ID = "x-b3-spanid";
    static final String B3_PARENT_SPAN_ID = "x-b3-parentspanid";
    static final String B3_SAMPLED = "x-b3-sampled";
    static final String B3_SINGLE = "b3";
    static final String SOFA_TRACE_ID = "rpc_trace_context.sofaTraceId";
    static final String SOFA_RPC_ID = "rpc_trace_context.sofaRpcId";

    private final List<TraceFormat> newTraceFormats;

    /** @param newTraceFormats the formats a new trace is written in */
    TracePropagation(List<TraceFormat> newTraceFormats) {
        this.newTraceFormats = List.copyOf(newTraceFormats);
    }

    /** Rewrites {@code headers}, which MUST be {@link FilterHeaders#writable()}, and returns the gateway's span. */
    TraceSpan apply(FilterHeaders headers) {
        String spanId = TraceIds.newSpanId();
        String traceId = null;
        String parent = null;

        String traceparent = headers.get(TRACEPARENT);
        if (W3cTraceparent.isValid(traceparent)) {
            traceId = W3cTraceparent.traceId(traceparent);
            parent = W3cTraceparent.parentId(traceparent);
            headers.set(TRACEPARENT, W3cTraceparent.format(traceId, spanId, W3cTraceparent.flags(traceparent)));
        }
        String b3TraceId = headers.get(B3_TRACE_ID);
        String b3SpanId = headers.get(B3_SPAN_ID);
        if (B3Headers.isTraceId(b3TraceId) && TraceIds.isId(b3SpanId, 16)) {
            traceId = traceId == null ? b3TraceId : traceId;
            parent = parent == null ? b3SpanId : parent;
            headers.set(B3_SPAN_ID, spanId);
            headers.set(B3_PARENT_SPAN_ID, b3SpanId);
        }
        String single = headers.get(B3_SINGLE);
        B3Headers.Single b3 = B3Headers.parseSingle(single);
        if (b3 != null) {
            traceId = traceId == null ? b3.traceId() : traceId;
            parent = parent == null ? b3.spanId() : parent;
            headers.set(B3_SINGLE, B3Headers.formatSingle(b3.traceId(), spanId, b3.sampling(), b3.spanId()));
        }
        String sofaTraceId = headers.get(SOFA_TRACE_ID);
        if (sofaTraceId != null && !sofaTraceId.isEmpty()) {
            traceId = traceId == null ? sofaTraceId : traceId;
            headers.set(SOFA_RPC_ID, SofaRpcIds.child(headers.get(SOFA_RPC_ID)));
        }
        if (traceId != null) {
            return new TraceSpan(traceId, spanId, parent);
        }
        return start(headers, spanId);
    }

    private TraceSpan start(FilterHeaders headers, String spanId) {
        String traceId = TraceIds.newTraceId();
        for (TraceFormat format : newTraceFormats) {
            switch (format) {
                case W3C -> headers.set(TRACEPARENT, W3cTraceparent.format(traceId, spanId, W3cTraceparent.SAMPLED));
                case B3 -> {
                    headers.set(B3_TRACE_ID, traceId);
                    headers.set(B3_SPAN_ID, spanId);
                    headers.set(B3_SAMPLED, "1");
                }
                case B3_SINGLE -> headers.set(B3_SINGLE, B3Headers.formatSingle(traceId, spanId, "1", null));
                case SOFA -> {
                    headers.set(SOFA_TRACE_ID, traceId);
                    headers.set(SOFA_RPC_ID, SofaRpcIds.child(null));
                }
                default -> throw new IllegalStateException("unhandled format " + format);
            }
        }
        return new TraceSpan(traceId, spanId, null);
    }
}
