package io.tollgate.filters.trace;

import java.util.List;

/**
 * What the {@code trace} filter's configuration says.
 *
 * @param newTraceFormats the formats a request without trace context gets its new trace in
 * @param exporter where finished spans go, or null for nowhere
 * @param samplingRatio the share of traces without a caller's sampling decision that are sampled
 */
record TraceSettings(List<TraceFormat> newTraceFormats, SpanExporter exporter, double samplingRatio) {

    /** New traces in W3C form, all sampled, nothing exported. */
    static final TraceSettings DEFAULTS = new TraceSettings(List.of(TraceFormat.W3C), null, 1.0);

    TraceSettings {
        newTraceFormats = List.copyOf(newTraceFormats);
    }
}
