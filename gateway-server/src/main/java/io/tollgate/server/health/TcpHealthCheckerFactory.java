package io.tollgate.server.health;

import io.tollgate.core.config.HealthCheckConfig;

/** Registers {@code tcp} ({@link TcpHealthChecker}), which has no settings of its own. */
public final class TcpHealthCheckerFactory implements HealthCheckerFactory {

    @Override
    public String name() {
        return "tcp";
    }

    @Override
    public HealthChecker create(HealthCheckConfig config) {
        return new TcpHealthChecker();
    }
}
