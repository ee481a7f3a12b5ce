package io.tollgate.server.health;

import io.tollgate.core.config.HealthCheckConfig;

/** Registers {@code bolt} ({@link BoltHealthChecker}), which has no settings of its own. */
public final class BoltHealthCheckerFactory implements HealthCheckerFactory {

    @Override
    public String name() {
        return "bolt";
    }

    @Override
    public HealthChecker create(HealthCheckConfig config) {
        return new BoltHealthChecker();
    }
}
