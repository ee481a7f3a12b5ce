package io.tollgate.filters.trace;

import io.micrometer.core.instrument.Counter;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterConfig;
import io.tollgate.core.filter.StreamFilterFactory;
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
 * the default, {@code log}, or the name of a {@link SpanExporter} found by {@link ServiceLoader}).
 */
public final class TraceFilterFactory implements StreamFilterFactory {

    private static final String NO_EXPORT = "none";

    @Override
    public String name() {
        return "trace";
    }

    @Override
    public Set<String> keys() {
        return Set.of("new_trace_formats", "export");
    }

    @Override
    public StreamFilterConfig parse(ConfigNode node, StreamFilterConfig base) {
        List<TraceFormat> formats = node.has("new_trace_formats")
                ? node.list("new_trace_formats", TraceFilterFactory::format)
                : TraceSettings.DEFAULTS.newTraceFormats();
        if (formats.isEmpty()) {
            throw node.child("new_trace_formats").error("empty (expected at least one of " + formatNames() + ")");
        }
        String export = node.string("export", NO_EXPORT);
        SpanExporter exporter = null;
        if (!export.equals(NO_EXPORT)) {
            Map<String, SpanExporter> exporters = exporters();
            exporter = exporters.get(export);
            if (exporter == null) {
                List<String> names = new ArrayList<>(List.of(NO_EXPORT));
                names.addAll(exporters.keySet());
                throw node.child("export").error("'" + export + "' (expected one of " + names + ")");
            }
        }
        return base.withSettings(new TraceSettings(formats, exporter));
    }

    @Override
    public StreamFilter create(StreamFilterConfig config, FilterScope scope) {
        TraceSettings settings = config.settings() == null ? TraceSettings.DEFAULTS : config.settings(TraceSettings.class);
        Counter unchanged = Counter.builder("tollgate.filter.trace.unchanged")
                .description("requests the trace filter passed unchanged: their protocol cannot rewrite its headers")
                .tag("listener", scope.listener())
                .tag("route", scope.route() == null ? "" : scope.route())
                .register(scope.meters());
        return new TraceFilter(new TracePropagation(settings.newTraceFormats()), settings.exporter(), unchanged);
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
