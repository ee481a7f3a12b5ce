package io.tollgate.filters.trace;

import java.util.List;

/**
 * What the {@code trace} filter's configuration says.
 *
 * @param newTraceFormats the formats a request without trace context gets its new trace in
 * @param export whether finished spans go to the {@link SpanExporter} (the log)
 */
record TraceSettings(List<TraceFormat> newTraceFormats, boolean export) {

    /** New traces in W3C form, nothing exported. */
    static final TraceSettings DEFAULTS = new TraceSettings(List.of(TraceFormat.W3C), false);

    TraceSettings {
        newTraceFormats = List.copyOf(newTraceFormats);
    }
}
