package io.tollgate.filters.trace;

import io.tollgate.core.filter.FilterHeaders;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

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
 * for new traces. Sampling is parent-based: the first sampling decision the request carries (W3C
 * flags, {@code x-b3-sampled} or {@code x-b3-flags}, the single {@code b3}'s state) is kept;
 * without one (SOFA carries none) the trace is sampled with the configured ratio, and a new trace
 * carries that decision (W3C flags {@code 00}, {@code x-b3-sampled: 0}) when it is not sampled. A malformed header counts as absent and is replaced only if a new trace is
 * started in its format.
 */
final class TracePropagation {

    static final String TRACEPARENT = "traceparent";
    static final String B3_TRACE_ID = "x-b3-traceid";
    static final String B3_SPAN_ID = "x-b3-spanid";
    static final String B3_PARENT_SPAN_ID = "x-b3-parentspanid";
    static final String B3_SAMPLED = "x-b3-sampled";
    static final String B3_FLAGS = "x-b3-flags";
    static final String B3_SINGLE = "b3";
    static final String SOFA_TRACE_ID = "rpc_trace_context.sofaTraceId";
    static final String SOFA_RPC_ID = "rpc_trace_context.sofaRpcId";

    private final List<TraceFormat> newTraceFormats;
    private final double samplingRatio;

    /** All new traces sampled. */
    TracePropagation(List<TraceFormat> newTraceFormats) {
        this(newTraceFormats, 1.0);
    }

    /**
     * @param newTraceFormats the formats a new trace is written in
     * @param samplingRatio the share of traces without a caller's decision that are sampled, 0 to 1
     */
    TracePropagation(List<TraceFormat> newTraceFormats, double samplingRatio) {
        this.newTraceFormats = List.copyOf(newTraceFormats);
        this.samplingRatio = samplingRatio;
    }

    /** Rewrites {@code headers}, which MUST be {@link FilterHeaders#writable()}, and returns the gateway's span. */
    TraceSpan apply(FilterHeaders headers) {
        String spanId = TraceIds.newSpanId();
        String traceId = null;
        String parent = null;
        Boolean sampled = null;

        String traceparent = headers.get(TRACEPARENT);
        if (W3cTraceparent.isValid(traceparent)) {
            traceId = W3cTraceparent.traceId(traceparent);
            parent = W3cTraceparent.parentId(traceparent);
            sampled = (Integer.parseInt(W3cTraceparent.flags(traceparent), 16) & 1) == 1;
            headers.set(TRACEPARENT, W3cTraceparent.format(traceId, spanId, W3cTraceparent.flags(traceparent)));
        }
        String b3TraceId = headers.get(B3_TRACE_ID);
        String b3SpanId = headers.get(B3_SPAN_ID);
        if (B3Headers.isTraceId(b3TraceId) && TraceIds.isId(b3SpanId, 16)) {
            traceId = traceId == null ? b3TraceId : traceId;
            parent = parent == null ? b3SpanId : parent;
            sampled = sampled == null ? B3Headers.sampled(headers.get(B3_SAMPLED), headers.get(B3_FLAGS)) : sampled;
            headers.set(B3_SPAN_ID, spanId);
            headers.set(B3_PARENT_SPAN_ID, b3SpanId);
        }
        String single = headers.get(B3_SINGLE);
        B3Headers.Single b3 = B3Headers.parseSingle(single);
        if (b3 != null) {
            traceId = traceId == null ? b3.traceId() : traceId;
            parent = parent == null ? b3.spanId() : parent;
            sampled = sampled == null ? B3Headers.sampled(b3.sampling()) : sampled;
            headers.set(B3_SINGLE, B3Headers.formatSingle(b3.traceId(), spanId, b3.sampling(), b3.spanId()));
        }
        String sofaTraceId = headers.get(SOFA_TRACE_ID);
        if (sofaTraceId != null && !sofaTraceId.isEmpty()) {
            traceId = traceId == null ? sofaTraceId : traceId;
            headers.set(SOFA_RPC_ID, SofaRpcIds.child(headers.get(SOFA_RPC_ID)));
        }
        if (traceId != null) {
            return new TraceSpan(traceId, spanId, parent, sampled == null ? sample() : sampled);
        }
        return start(headers, spanId, sample());
    }

    private boolean sample() {
        return samplingRatio >= 1.0 || (samplingRatio > 0 && ThreadLocalRandom.current().nextDouble() < samplingRatio);
    }

    private TraceSpan start(FilterHeaders headers, String spanId, boolean sampled) {
        String traceId = TraceIds.newTraceId();
        String b3Sampled = sampled ? "1" : "0";
        for (TraceFormat format : newTraceFormats) {
            switch (format) {
                case W3C -> headers.set(TRACEPARENT, W3cTraceparent.format(traceId, spanId,
                        sampled ? W3cTraceparent.SAMPLED : W3cTraceparent.NOT_SAMPLED));
                case B3 -> {
                    headers.set(B3_TRACE_ID, traceId);
                    headers.set(B3_SPAN_ID, spanId);
                    headers.set(B3_SAMPLED, b3Sampled);
                }
                case B3_SINGLE -> headers.set(B3_SINGLE, B3Headers.formatSingle(traceId, spanId, b3Sampled, null));
                case SOFA -> {
                    headers.set(SOFA_TRACE_ID, traceId);
                    headers.set(SOFA_RPC_ID, SofaRpcIds.child(null));
                }
                default -> throw new IllegalStateException("unhandled format " + format);
            }
        }
        return new TraceSpan(traceId, spanId, null, sampled);
    }
}
