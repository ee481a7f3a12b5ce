package io.tollgate.server.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.core.config.HttpHealthCheckConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The health checkers this module registers, as the configuration loader and {@link HealthCheckers} find them. */
class HealthCheckerFactoryTest {

    private static HealthCheckConfig check(String type) {
        return new HealthCheckConfig(type, Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ZERO, 1, 1,
                HttpHealthCheckConfig.DEFAULTS);
    }

    @Test
    void registersEveryTypeAsAHealthCheckerFactory() {
        ExtensionRegistry registry = ExtensionRegistry.defaults();

        assertThat(HealthCheckers.names()).containsExactly("bolt", "dubbo", "http", "tcp");
        for (String type : HealthCheckers.names()) {
            assertThat(registry.find(HealthCheckConfig.class, type, HealthCheckerFactory.class)).as(type).isPresent();
        }
        assertThat(registry.find(HealthCheckConfig.class, "http").orElseThrow().keys()).containsExactly("http");
    }

    @Test
    void makesTheCheckerOfEachType() {
        assertThat(HealthCheckers.create(check("tcp"))).isInstanceOf(TcpHealthChecker.class);
        assertThat(HealthCheckers.create(check("http"))).isInstanceOf(HttpHealthChecker.class);
        assertThat(HealthCheckers.create(check("bolt"))).isInstanceOf(RpcHealthChecker.class);
        assertThat(HealthCheckers.create(check("dubbo"))).isInstanceOf(RpcHealthChecker.class);
        assertThatThrownBy(() -> HealthCheckers.create(check("udp")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("health_check.type: udp (expected one of [bolt, dubbo, http, tcp])");
    }
}
