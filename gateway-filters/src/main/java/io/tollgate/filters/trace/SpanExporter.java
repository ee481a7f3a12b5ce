package io.tollgate.filters.trace;

/**
 * Where the {@code trace} filter sends the spans it finished, when exporting is on. Called on the
 * request's event loop: an implementation MUST NOT block (hand the span to another thread, or
 * drop it).
 */
interface SpanExporter {

    void export(FinishedSpan span);
}
