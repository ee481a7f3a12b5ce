package io.tollgate.filters.trace;

import java.util.Locale;

/**
 * A way trace context travels in request headers (HTTP headers, Bolt headers, Dubbo attachments),
 * by the name the {@code trace} filter's configuration gives it.
 */
enum TraceFormat {
    /** W3C Trace Context: {@code traceparent} (and {@code tracestate}, carried as it is). */
    W3C,
    /** Zipkin's B3, one header per field: {@code x-b3-traceid}, {@code x-b3-spanid}, ... */
    B3,
    /** Zipkin's B3 in one header, {@code b3: traceid-spanid-sampled-parentspanid}. */
    B3_SINGLE,
    /** SOFATracer's {@code rpc_trace_context.sofaTraceId} and {@code rpc_trace_context.sofaRpcId}. */
    SOFA;

    /** The name in the configuration, e.g. {@code b3_single}. */
    String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
