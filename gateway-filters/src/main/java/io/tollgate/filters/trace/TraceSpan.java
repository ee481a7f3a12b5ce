package io.tollgate.filters.trace;

/**
 * The span the gateway made for one request.
 *
 * @param traceId the trace it belongs to, kept from the caller or new
 * @param spanId the gateway's own span id, the parent of the upstream's span
 * @param parentSpanId the caller's span id, or null when the gateway started the trace
 */
public record TraceSpan(String traceId, String spanId, String parentSpanId) {
}
