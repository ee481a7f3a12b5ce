package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

/**
 * One element of a listener's ordered {@code network_filters}: the name its factory is
 * registered under and the settings that factory read.
 */
public record NetworkFilterEntry(String name, NetworkFilterConfig config) {

    public NetworkFilterEntry {
        requireNonNull(name, "name");
        requireNonNull(config, "config");
    }
}
