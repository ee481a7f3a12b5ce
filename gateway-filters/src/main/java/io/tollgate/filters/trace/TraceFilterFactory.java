package io.tollgate.filters.trace;

import io.micrometer.core.instrument.Counter;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterConfig;
import io.tollgate.core.filter.StreamFilterFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The {@code trace} stream filter: reads {@code new_trace_formats} (the formats a request without
 * trace context gets its new trace in; default {@code [w3c]}) and {@code export} ({@code none},
 * the default, or {@code log}).
 */
public final class TraceFilterFactory implements StreamFilterFactory {

    private static final List<String> EXPORTS = List.of("none", "log");

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
        String export = node.string("export", "none");
        if (!EXPORTS.contains(export)) {
            throw node.child("export").error("'" + export + "' (expected one of " + EXPORTS + ")");
        }
        return base.withSettings(new TraceSettings(formats, export.equals("log")));
    }

    @Override
    public StreamFilter create(StreamFilterConfig config, FilterScope scope) {
        TraceSettings settings = config.settings() == null ? TraceSettings.DEFAULTS : config.settings(TraceSettings.class);
        Counter unchanged = Counter.builder("tollgate.filter.trace.unchanged")
                .description("requests the trace filter passed unchanged: their protocol cannot rewrite its headers")
                .tag("listener", scope.listener())
                .tag("route", scope.route() == null ? "" : scope.route())
                .register(scope.meters());
        return new TraceFilter(new TracePropagation(settings.newTraceFormats()),
                settings.export() ? new LoggingSpanExporter() : null, unchanged);
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
