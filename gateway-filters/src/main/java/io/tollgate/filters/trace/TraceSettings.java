package io.tollgate.filters.trace;

import java.util.List;

/**
 * What the {@code trace} filter's configuration says.
 *
 * @param newTraceFormats the formats a request without trace context gets its new trace in
 * @param exporter where finished spans go, or null for nowhere
 */
record TraceSettings(List<TraceFormat> newTraceFormats, SpanExporter exporter) {

    /** New traces in W3C form, nothing exported. */
    static final TraceSettings DEFAULTS = new TraceSettings(List.of(TraceFormat.W3C), null);

    TraceSettings {
        newTraceFormats = List.copyOf(newTraceFormats);
    }
}
