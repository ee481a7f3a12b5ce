package io.tollgate.filters.trace;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tollgate.filters.trace.export.BatchExporter;
import io.tollgate.filters.trace.export.SharedExporters;
import java.util.function.Function;

/**
 * An {@code export: { type: ..., ... }} mapping (Zipkin, OTLP): spans queued on the event loop and
 * sent in batches by the shared {@link BatchExporter} of these settings. Holds the exporter's
 * handle, so the exporter stays open while a loaded configuration holds this.
 */
final class QueuedSpanExporter implements SpanExporter {

    private static final SharedExporters<Object, BatchExporter<FinishedSpan>> SHARED = new SharedExporters<>();

    private final String name;
    private final SharedExporters.Handle<BatchExporter<FinishedSpan>> handle;
    private final BatchExporter<FinishedSpan> exporter;

    /**
     * @param name the exporter type, {@code zipkin} or {@code otlp}: its thread's and meters' name
     * @param settings what equal exporters are shared by: a record of everything that makes one
     * @param make the exporter for these settings, when none is open
     */
    <K> QueuedSpanExporter(String name, K settings, Function<K, BatchExporter<FinishedSpan>> make) {
        this.name = name;
        this.handle = SHARED.acquire(settings, s -> make.apply(settings));
        this.exporter = handle.exporter();
    }

    /** The shared exporter this one offers to. */
    BatchExporter<FinishedSpan> batchExporter() {
        return exporter;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void export(FinishedSpan span) {
        exporter.offer(span);
    }

    /** Starts the exporter's thread and registers its counts in {@code meters}, tagged by its endpoint (once per registry). */
    void start(MeterRegistry meters) {
        exporter.start();
        String endpoint = exporter.settings().endpoint().toString();
        if (meters.find("tollgate.trace.export.sent").tags("exporter", name, "endpoint", endpoint).functionCounter() != null) {
            return;
        }
        FunctionCounter.builder("tollgate.trace.export.dropped", exporter, BatchExporter::dropped)
                .description("spans dropped because the export queue was full").tag("exporter", name)
                .tag("endpoint", endpoint).register(meters);
        FunctionCounter.builder("tollgate.trace.export.failed", exporter, BatchExporter::failed)
                .description("spans lost in export requests that failed or the backend rejected").tag("exporter", name)
                .tag("endpoint", endpoint).register(meters);
        FunctionCounter.builder("tollgate.trace.export.sent", exporter, BatchExporter::sent)
                .description("spans the tracing backend accepted").tag("exporter", name)
                .tag("endpoint", endpoint).register(meters);
    }
}
