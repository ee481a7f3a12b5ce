package io.tollgate.filters.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ConfigLoader;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.filter.StreamFilterConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
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
    void namesThePathOfABadSetting() {
        assertThatThrownBy(() -> load("{ name: trace, new_trace_formats: [w3c, zipkin] }"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("listeners[0].filters[0].new_trace_formats[1]: unknown format 'zipkin'"
                        + " (expected one of [w3c, b3, b3_single, sofa])");
        assertThatThrownBy(() -> load("{ name: trace, new_trace_formats: [] }"))
                .hasMessageStartingWith("listeners[0].filters[0].new_trace_formats: empty");
        assertThatThrownBy(() -> load("{ name: trace, export: zipkin }"))
                .hasMessage("listeners[0].filters[0].export: 'zipkin' (expected one of [none, log])");
        assertThatThrownBy(() -> load("{ name: trace, sample: 10 }"))
                .hasMessageStartingWith("listeners[0].filters[0].sample: unknown field");
    }
}
