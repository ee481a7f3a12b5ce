package io.tollgate.server.health;

import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.core.extension.ExtensionFactory;

/**
 * The kind of extension that active health checkers are ({@code health_check.type}): one
 * implementation per type, listed in {@code META-INF/services/io.tollgate.core.extension.ExtensionFactory}
 * and found by name in the {@link io.tollgate.core.extension.ExtensionRegistry}. It reads the
 * settings it owns from the {@code health_check} node when the configuration is loaded, and makes
 * the checker of each cluster from them.
 */
public interface HealthCheckerFactory extends ExtensionFactory<HealthCheckConfig> {

    @Override
    default Class<HealthCheckConfig> configType() {
        return HealthCheckConfig.class;
    }

    /** The checker of a cluster whose health check {@link #parse} read (or that was built with defaults). */
    HealthChecker create(HealthCheckConfig config);
}
