package io.tollgate.server.health;

import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import java.util.Set;

/**
 * Active health checkers by the type name used in configuration ({@code health_check.type}): the
 * {@link HealthCheckerFactory}s of {@link ExtensionRegistry#defaults()}, the registry the
 * configuration was checked against, so an unknown name here is a bug, not a configuration error.
 */
public final class HealthCheckers {

    private HealthCheckers() {
    }

    /** The registered type names, sorted. */
    public static Set<String> names() {
        return ExtensionRegistry.defaults().names(HealthCheckConfig.class);
    }

    /** The checker for a cluster's health check configuration. */
    public static HealthChecker create(HealthCheckConfig config) {
        return ExtensionRegistry.defaults().find(HealthCheckConfig.class, config.type(), HealthCheckerFactory.class)
                .orElseThrow(() -> new IllegalArgumentException("health_check.type: " + config.type()
                        + " (expected one of " + names() + ")"))
                .create(config);
    }
}
