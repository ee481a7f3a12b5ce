package io.tollgate.filters.trace;

import io.micrometer.core.instrument.Counter;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterFactory;
import io.tollgate.filters.trace.export.BatchExporter;
import io.tollgate.filters.trace.export.BatchSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The {@code trace} stream filter: reads {@code new_trace_formats} (the formats a request without
 * trace context gets its new trace in; default {@code [w3c]}) and {@code export} ({@code none},
 * the default, {@code log}, or the name of a {@link SpanExporter} found by {@link ServiceLoader};
 * or a mapping {@code { type: zipkin, endpoint, service_name, max_queue, max_batch, flush_interval,
 * timeout }}, or the same with {@code type: otlp} and {@code protocol: http/protobuf | grpc}) and {@code sampling} ({@code { ratio }}: the share of traces without a caller's
 * decision that are sampled, default 1.0).
 */
public final class TraceFilterFactory implements StreamFilterFactory {

    private static final String NO_EXPORT = "none";
    private static final String ZIPKIN = "zipkin";
    private static final String OTLP = "otlp";
    private static final String OTLP_HTTP = "http/protobuf";
    private static final String OTLP_GRPC = "grpc";
    private static final Set<String> ZIPKIN_KEYS = Set.of("type", "endpoint", "service_name", "max_queue", "max_batch",
            "flush_interval", "timeout");
    private static final Set<String> OTLP_KEYS = Set.of("type", "protocol", "endpoint", "service_name", "max_queue",
            "max_batch", "flush_interval", "timeout");

    @Override
    public String name() {
        return "trace";
    }

    @Override
    public Set<String> keys() {
        return Set.of("new_trace_formats", "export", "sampling");
    }

    @Override
    public StreamFilterConfig parse(ConfigNode node, StreamFilterConfig base) {
        List<TraceFormat> formats = node.has("new_trace_formats")
                ? node.list("new_trace_formats", TraceFilterFactory::format)
                : TraceSettings.DEFAULTS.newTraceFormats();
        if (formats.isEmpty()) {
            throw node.child("new_trace_formats").error("empty (expected at least one of " + formatNames() + ")");
        }
        double ratio = 1.0;
        if (node.has("sampling")) {
            ConfigNode sampling = node.child("sampling").allowOnly(Set.of("ratio"));
            ratio = sampling.has("ratio") ? sampling.child("ratio").asDouble() : 1.0;
            if (!(ratio >= 0 && ratio <= 1)) {
                throw sampling.child("ratio").error("must be from 0 to 1");
            }
        }
        SpanExporter exporter = node.has("export") && node.child("export").isMapping()
                ? queued(node.child("export")) : named(node);
        return base.withSettings(new TraceSettings(formats, exporter, ratio));
    }

    private static SpanExporter queued(ConfigNode node) {
        String type = node.string("type");
        if (type.equals(ZIPKIN)) {
            node.allowOnly(ZIPKIN_KEYS);
            BatchSettings batch = batch(node, "http://127.0.0.1:9411/api/v2/spans", "application/json");
            ZipkinSettings settings = new ZipkinSettings(batch, node.string("service_name", "tollgate"));
            return new QueuedSpanExporter(ZIPKIN, settings,
                    s -> new BatchExporter<>(ZIPKIN, s.batch(), new ZipkinJson(s.serviceName())));
        }
        if (!type.equals(OTLP)) {
            throw node.child("type").error("'" + type + "' (expected " + ZIPKIN + " or " + OTLP + ")");
        }
        node.allowOnly(OTLP_KEYS);
        String protocol = node.string("protocol", OTLP_HTTP);
        if (!protocol.equals(OTLP_HTTP) && !protocol.equals(OTLP_GRPC)) {
            throw node.child("protocol").error("'" + protocol + "' (expected " + OTLP_HTTP + " or " + OTLP_GRPC + ")");
        }
        boolean grpc = protocol.equals(OTLP_GRPC);
        BatchSettings batch = batch(node, grpc ? "http://127.0.0.1:4317" : "http://127.0.0.1:4318/v1/traces",
                "application/x-protobuf");
        OtlpSettings settings = new OtlpSettings(batch, grpc, node.string("service_name", "tollgate"));
        return new QueuedSpanExporter(OTLP, settings, s -> {
            OtlpSpans spans = new OtlpSpans(s.serviceName());
            return s.grpc()
                    ? new BatchExporter<>(OTLP, s.batch(), new OtlpGrpcSender(s.batch().endpoint(), spans, s.batch().timeout()))
                    : new BatchExporter<>(OTLP, s.batch(), spans);
        });
    }

    /** Where and how an exporter mapping sends: {@code endpoint}, {@code max_queue}, {@code max_batch}, {@code flush_interval}, {@code timeout}. */
    private static BatchSettings batch(ConfigNode node, String defaultEndpoint, String contentType) {
        String endpoint = node.string("endpoint", defaultEndpoint);
        URI uri;
        try {
            uri = new URI(endpoint);
        } catch (URISyntaxException e) {
            throw node.child("endpoint").error("not a URL: " + e.getMessage());
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw node.child("endpoint").error("'" + endpoint + "' (expected an http or https URL)");
        }
        int maxQueue = node.integer("max_queue", 2048, 1, 1 << 20);
        int maxBatch = node.integer("max_batch", 512, 1, 65536);
        return new BatchSettings(uri, contentType, maxQueue, maxBatch,
                node.positiveDuration("flush_interval", Duration.ofSeconds(1)),
                node.positiveDuration("timeout", Duration.ofSeconds(5)));
    }

    /**
     * The settings of one Zipkin exporter.
     *
     * @param batch where and how batches go
     * @param serviceName the local endpoint's service name
     */
    private record ZipkinSettings(BatchSettings batch, String serviceName) {
    }

    /**
     * The settings of one OTLP exporter.
     *
     * @param batch where and how batches go
     * @param grpc OTLP/gRPC, else OTLP/HTTP with protobuf bodies
     * @param serviceName the resource's {@code service.name}
     */
    private record OtlpSettings(BatchSettings batch, boolean grpc, String serviceName) {
    }

    private static SpanExporter named(ConfigNode node) {
        String export = node.string("export", NO_EXPORT);
        SpanExporter exporter = null;
        if (!export.equals(NO_EXPORT)) {
            Map<String, SpanExporter> exporters = exporters();
            exporter = exporters.get(export);
            if (exporter == null) {
                List<String> names = new ArrayList<>(List.of(NO_EXPORT));
                names.addAll(exporters.keySet());
                throw node.child("export").error("'" + export + "' (expected one of " + names
                        + ", or a mapping with type: zipkin or otlp)");
            }
        }
        return exporter;
    }

    @Override
    public StreamFilter create(StreamFilterConfig config, FilterScope scope) {
        TraceSettings settings = config.settings() == null ? TraceSettings.DEFAULTS : config.settings(TraceSettings.class);
        Counter unchanged = Counter.builder("tollgate.filter.trace.unchanged")
                .description("requests the trace filter passed unchanged: their protocol cannot rewrite its headers")
                .tag("listener", scope.listener())
                .tag("route", scope.route() == null ? "" : scope.route())
                .register(scope.meters());
        if (settings.exporter() instanceof QueuedSpanExporter queued) {
            queued.start(scope.meters());
        }
        return new TraceFilter(new TracePropagation(settings.newTraceFormats(), settings.samplingRatio()),
                settings.exporter(), unchanged);
    }

    /** The built-in {@code log} exporter and those on the class path, by name. */
    private static Map<String, SpanExporter> exporters() {
        Map<String, SpanExporter> exporters = new LinkedHashMap<>();
        exporters.put(LoggingSpanExporter.NAME, new LoggingSpanExporter());
        for (SpanExporter exporter : ServiceLoader.load(SpanExporter.class, TraceFilterFactory.class.getClassLoader())) {
            exporters.putIfAbsent(exporter.name(), exporter);
        }
        return exporters;
    }

    private static TraceFormat format(ConfigNode n) {
        String name = n.asString();
        return Arrays.stream(TraceFormat.values()).filter(f -> f.configName().equals(name)).findFirst()
                .orElseThrow(() -> n.error("unknown format '" + name + "' (expected one of " + formatNames() + ")"));
    }

    private static List<String> formatNames() {
        return Arrays.stream(TraceFormat.values()).map(TraceFormat::configName).toList();
    }
}
