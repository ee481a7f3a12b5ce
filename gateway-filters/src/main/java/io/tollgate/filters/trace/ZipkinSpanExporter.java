package io.tollgate.filters.trace;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tollgate.filters.trace.export.BatchExporter;
import io.tollgate.filters.trace.export.BatchSettings;
import io.tollgate.filters.trace.export.SharedExporters;

/**
 * {@code export: { type: zipkin, ... }}: spans queued on the event loop and POSTed as Zipkin v2
 * JSON by the shared {@link BatchExporter} of these settings. Holds the exporter's handle, so the
 * exporter stays open while a loaded configuration holds this.
 */
final class ZipkinSpanExporter implements SpanExporter {

    /** The {@code type} selecting this exporter. */
    static final String NAME = "zipkin";

    private static final SharedExporters<ZipkinSettings, BatchExporter<FinishedSpan>> SHARED = new SharedExporters<>();

    private final SharedExporters.Handle<BatchExporter<FinishedSpan>> handle;
    private final BatchExporter<FinishedSpan> exporter;

    /**
     * The settings of one Zipkin exporter.
     *
     * @param batch where and how batches go
     * @param serviceName the local endpoint's service name
     */
    record ZipkinSettings(BatchSettings batch, String serviceName) {
    }

    ZipkinSpanExporter(ZipkinSettings settings) {
        this.handle = SHARED.acquire(settings, s -> new BatchExporter<>(NAME, s.batch(), new ZipkinJson(s.serviceName())));
        this.exporter = handle.exporter();
    }

    /** Closes the exporters no loaded configuration holds; for tests, which cannot wait for the next load. */
    static int closeUnused() {
        return SHARED.closeReleased();
    }

    /** The shared exporter this one offers to. */
    BatchExporter<FinishedSpan> batchExporter() {
        return exporter;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void export(FinishedSpan span) {
        exporter.offer(span);
    }

    /** Starts the exporter's thread and registers its counts in {@code meters}, tagged by its endpoint (once per registry). */
    void start(MeterRegistry meters) {
        exporter.start();
        String endpoint = exporter.settings().endpoint().toString();
        if (meters.find("tollgate.trace.export.sent").tags("exporter", NAME, "endpoint", endpoint).functionCounter() != null) {
            return;
        }
        FunctionCounter.builder("tollgate.trace.export.dropped", exporter, BatchExporter::dropped)
                .description("spans dropped because the export queue was full").tag("exporter", NAME)
                .tag("endpoint", endpoint).register(meters);
        FunctionCounter.builder("tollgate.trace.export.failed", exporter, BatchExporter::failed)
                .description("spans lost in export requests that failed").tag("exporter", NAME)
                .tag("endpoint", endpoint).register(meters);
        FunctionCounter.builder("tollgate.trace.export.sent", exporter, BatchExporter::sent)
                .description("spans the tracing backend accepted").tag("exporter", NAME)
                .tag("endpoint", endpoint).register(meters);
    }
}
