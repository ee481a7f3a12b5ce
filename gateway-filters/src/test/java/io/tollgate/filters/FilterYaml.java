package io.tollgate.filters;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tollgate.core.config.ConfigLoader;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Loads a listener with the filters a test writes, as the configuration file's {@code listeners[0]}. */
public final class FilterYaml {

    private FilterYaml() {
    }

    /**
     * The listener {@code web} with {@code filter}, one filter entry written as a YAML flow
     * mapping, routing everything to cluster {@code app}.
     */
    public static ListenerConfig withFilter(String filter) {
        String yaml = """
                name: web
                port: 8080
                filters: [ %s ]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes: [ { match: { prefix: / }, route: { cluster: app } } ]
                """.formatted(filter);
        try {
            return ConfigLoader.listener(new ObjectMapper(new YAMLFactory()).readTree(yaml), "listeners[0]",
                    ExtensionRegistry.defaults());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
