package io.tollgate.core.config;

import java.util.Arrays;
import java.util.Optional;

/**
 * The priority a route gives its requests (Envoy's {@code RoutingPriority}): each priority of a
 * cluster has circuit breakers of its own, so that high-priority traffic keeps flowing while
 * default-priority traffic overflows its limits.
 */
public enum RoutingPriority {
    DEFAULT("default"),
    HIGH("high");

    private final String configName;

    RoutingPriority(String configName) {
        this.configName = configName;
    }

    /** The name used in the configuration file. */
    public String configName() {
        return configName;
    }

    /** The priority called {@code name} in the configuration file, or empty. */
    public static Optional<RoutingPriority> named(String name) {
        return Arrays.stream(values()).filter(p -> p.configName.equals(name)).findFirst();
    }
}
