package io.tollgate.server.health;

import io.tollgate.core.config.HealthCheckConfig;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The registry of active health checkers by the type name used in configuration
 * ({@code health_check.type}). Immutable; a new protocol's checker is one more entry. Keep the
 * names in step with the configuration loader's list.
 */
public final class HealthCheckers {

    private static final Map<String, Function<HealthCheckConfig, HealthChecker>> FACTORIES = Map.of(
            "tcp", config -> new TcpHealthChecker(),
            "http", config -> new HttpHealthChecker(config.http()),
            "bolt", config -> new BoltHealthChecker());

    private HealthCheckers() {
    }

    /** The registered type names. */
    public static Set<String> names() {
        return FACTORIES.keySet();
    }

    /** The checker for a cluster's health check configuration. */
    public static HealthChecker create(HealthCheckConfig config) {
        Function<HealthCheckConfig, HealthChecker> factory = FACTORIES.get(config.type());
        if (factory == null) {
            throw new IllegalArgumentException("health_check.type: " + config.type() + " (expected one of " + names() + ")");
        }
        return factory.apply(config);
    }
}
