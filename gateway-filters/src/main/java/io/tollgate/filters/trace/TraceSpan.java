package io.tollgate.filters.trace;

/**
 * The span the gateway made for one request.
 *
 * @param traceId the trace it belongs to, kept from the caller or new
 * @param spanId the gateway's own span id, the parent of the upstream's span
 * @param parentSpanId the caller's span id, or null when the gateway started the trace
 * @param sampled whether the trace is sampled: the caller's decision (W3C flags, B3 sampled or
 *     debug) when it sent one, else the gateway's by its sampling ratio
 */
public record TraceSpan(String traceId, String spanId, String parentSpanId, boolean sampled) {
}
