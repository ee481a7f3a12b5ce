package io.tollgate.filters.trace;

/**
 * Where the {@code trace} filter sends the spans it finished when its {@code export} names this
 * exporter. {@code log} is built in ({@link LoggingSpanExporter}); others are found by
 * {@link java.util.ServiceLoader} (listed in {@code META-INF/services/io.tollgate.filters.trace.SpanExporter})
 * when the configuration loads.
 */
public interface SpanExporter {

    /** The name {@code export} selects this exporter by, e.g. {@code log}. */
    String name();

    /**
     * Takes one finished span. Called on the request's event loop: an implementation MUST NOT block
     * (hand the span to another thread, or drop it).
     */
    void export(FinishedSpan span);
}
