package io.tollgate.filters.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.filters.trace.export.BatchSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceFilterFactoryTest {

    private static StreamFilterConfig load(String filter) {
        JsonNode listener;
        try {
            listener = new ObjectMapper(new YAMLFactory()).readTree("""
                    name: http
                    filters: [%s]
                    route_config:
                      virtual_hosts:
                        - { name: vh, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: b } }] }
                    """.formatted(filter));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ConfigLoader.listener(listener, "listeners[0]", ExtensionRegistry.of(List.of(new TraceFilterFactory())))
                .filters().get(0);
    }

    @Test
    void readsFormatsAndExportWithDefaults() {
        assertThat(load("{ name: trace }").settings(TraceSettings.class)).isEqualTo(TraceSettings.DEFAULTS);
        TraceSettings settings = load("{ name: trace, new_trace_formats: [b3_single, sofa], export: log }")
                .settings(TraceSettings.class);
        assertThat(settings.newTraceFormats()).containsExactly(TraceFormat.B3_SINGLE, TraceFormat.SOFA);
        assertThat(settings.exporter()).isInstanceOf(LoggingSpanExporter.class);
    }

    @Test
    void readsAZipkinExportAndSharesItsExporterBetweenEqualSettings() {
        String filter = "{ name: trace, sampling: { ratio: 0.25 }, export: { type: zipkin,"
                + " endpoint: 'http://127.0.0.1:9/api/v2/spans', service_name: edge, max_queue: 8, max_batch: 4,"
                + " flush_interval: 250ms } }";
        TraceSettings first = load(filter).settings(TraceSettings.class);
        TraceSettings second = load(filter).settings(TraceSettings.class);
        assertThat(first.samplingRatio()).isEqualTo(0.25);
        QueuedSpanExporter exporter = (QueuedSpanExporter) first.exporter();
        assertThat(exporter.batchExporter()).isSameAs(((QueuedSpanExporter) second.exporter()).batchExporter());
        assertThat(exporter.batchExporter().settings()).isEqualTo(new BatchSettings(
                URI.create("http://127.0.0.1:9/api/v2/spans"), "application/json", 8, 4, Duration.ofMillis(250),
                Duration.ofSeconds(5)));
        TraceSettings other = load(filter.replace("edge", "other")).settings(TraceSettings.class);
        assertThat(((QueuedSpanExporter) other.exporter()).batchExporter()).isNotSameAs(exporter.batchExporter());
    }

    @Test
    void readsAnOtlpExportWithEachProtocolsDefaultEndpoint() {
        QueuedSpanExporter http = (QueuedSpanExporter) load("{ name: trace, export: { type: otlp } }")
                .settings(TraceSettings.class).exporter();
        assertThat(http.name()).isEqualTo("otlp");
        assertThat(http.batchExporter().settings()).isEqualTo(new BatchSettings(
                URI.create("http://127.0.0.1:4318/v1/traces"), "application/x-protobuf", 2048, 512,
                Duration.ofSeconds(1), Duration.ofSeconds(5)));
        QueuedSpanExporter grpc = (QueuedSpanExporter) load("{ name: trace, export: { type: otlp, protocol: grpc } }")
                .settings(TraceSettings.class).exporter();
        assertThat(grpc.batchExporter().settings().endpoint()).isEqualTo(URI.create("http://127.0.0.1:4317"));
        assertThat(grpc.batchExporter()).isNotSameAs(http.batchExporter());
    }

    @Test
    void namesThePathOfABadSetting() {
        assertThatThrownBy(() -> load("{ name: trace, new_trace_formats: [w3c, zipkin] }"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("listeners[0].filters[0].new_trace_formats[1]: unknown format 'zipkin'"
                        + " (expected one of [w3c, b3, b3_single, sofa])");
        assertThatThrownBy(() -> load("{ name: trace, new_trace_formats: [] }"))
                .hasMessageStartingWith("listeners[0].filters[0].new_trace_formats: empty");
        assertThatThrownBy(() -> load("{ name: trace, export: zipkin }"))
                .hasMessage("listeners[0].filters[0].export: 'zipkin' (expected one of [none, log], or a mapping with type: zipkin or otlp)");
        assertThatThrownBy(() -> load("{ name: trace, export: { type: jaeger } }"))
                .hasMessage("listeners[0].filters[0].export.type: 'jaeger' (expected zipkin or otlp)");
        assertThatThrownBy(() -> load("{ name: trace, export: { type: otlp, protocol: http/json } }"))
                .hasMessage("listeners[0].filters[0].export.protocol: 'http/json' (expected http/protobuf or grpc)");
        assertThatThrownBy(() -> load("{ name: trace, export: { type: zipkin, protocol: grpc } }"))
                .hasMessageStartingWith("listeners[0].filters[0].export.protocol: unknown field");
        assertThatThrownBy(() -> load("{ name: trace, export: { type: zipkin, endpoint: 'ftp://x/y' } }"))
                .hasMessage("listeners[0].filters[0].export.endpoint: 'ftp://x/y' (expected an http or https URL)");
        assertThatThrownBy(() -> load("{ name: trace, export: { type: zipkin, max_queue: 0 } }"))
                .hasMessageStartingWith("listeners[0].filters[0].export.max_queue");
        assertThatThrownBy(() -> load("{ name: trace, export: { type: zipkin, batch: 3 } }"))
                .hasMessageStartingWith("listeners[0].filters[0].export.batch: unknown field");
        assertThatThrownBy(() -> load("{ name: trace, sampling: { ratio: 1.5 } }"))
                .hasMessage("listeners[0].filters[0].sampling.ratio: must be from 0 to 1");
        assertThatThrownBy(() -> load("{ name: trace, sample: 10 }"))
                .hasMessageStartingWith("listeners[0].filters[0].sample: unknown field");
    }
}
