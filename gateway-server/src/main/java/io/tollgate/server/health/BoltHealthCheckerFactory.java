package io.tollgate.server.health;

import io.tollgate.protocols.bolt.BoltCodec;
import io.tollgate.core.config.HealthCheckConfig;

/** Registers {@code bolt} ({@link RpcHealthChecker} with Bolt heartbeats), which has no settings of its own. */
public final class BoltHealthCheckerFactory implements HealthCheckerFactory {

    @Override
    public String name() {
        return "bolt";
    }

    @Override
    public HealthChecker create(HealthCheckConfig config) {
        return new RpcHealthChecker(BoltCodec.DEFAULTS);
    }
}
