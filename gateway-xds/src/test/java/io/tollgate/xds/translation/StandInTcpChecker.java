package io.tollgate.xds.translation;

import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.core.extension.ExtensionFactory;

/** The {@code tcp} health check type for translation tests; the real checkers live in gateway-server. */
public final class StandInTcpChecker implements ExtensionFactory<HealthCheckConfig> {

    @Override
    public String name() {
        return "tcp";
    }

    @Override
    public Class<HealthCheckConfig> configType() {
        return HealthCheckConfig.class;
    }
}
