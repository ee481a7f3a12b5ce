package io.tollgate.filters;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.read.ConfigLoader;

/**
 * A configuration of one listener whose chain is one filter entry, written inline, for the
 * filters' configuration tests: what the loader keeps of the entry, or the error it names.
 */
public final class FilterYaml {

    /** The path of the entry, which every error about it starts with. */
    public static final String ENTRY = "listeners[0].filters[0]";

    private FilterYaml() {
    }

    /** The configuration, {@code entry} being a YAML flow mapping such as {@code { name: rbac, ... }}. */
    public static String listenerWith(String entry) {
        return """
                listeners:
                  - name: l
                    filters:
                      - %s
                    route_config:
                      virtual_hosts:
                        - name: vh
                          domains: ["*"]
                          routes: [{ match: { prefix: / }, direct_response: { status: 200 } }]
                clusters:
                  - name: app
                    endpoints: [{ address: 127.0.0.1, port: 8081 }]
                """.formatted(entry);
    }

    /** What the filter's factory read from {@code entry}. */
    public static <T> T settings(String entry, Class<T> type) {
        return ConfigLoader.parse(listenerWith(entry)).listeners().get(0).filters().get(0).settings(type);
    }

    /** Fails unless loading {@code entry} fails with exactly {@code message}. */
    public static void assertRejected(String entry, String message) {
        assertThatThrownBy(() -> ConfigLoader.parse(listenerWith(entry)))
                .isInstanceOf(ConfigException.class)
                .hasMessage(message);
    }
}
