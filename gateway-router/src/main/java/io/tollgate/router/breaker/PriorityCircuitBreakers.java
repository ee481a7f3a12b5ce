package io.tollgate.router.breaker;

import static java.util.Objects.requireNonNull;

import io.tollgate.core.config.CircuitBreakersConfig;
import io.tollgate.core.config.RoutingPriority;

/**
 * A cluster's circuit breakers, one {@link CircuitBreakers} per {@link RoutingPriority} with its
 * own counters and limits (Envoy's per-priority resource managers), so that requests of
 * high-priority routes still flow while the default priority overflows. Connection pools are
 * shared by both priorities, so their connections and waiting requests count under the default
 * priority.
 */
public final class PriorityCircuitBreakers {

    private final CircuitBreakers defaultPriority;
    private final CircuitBreakers highPriority;

    public PriorityCircuitBreakers(CircuitBreakersConfig config) {
        requireNonNull(config, "config");
        this.defaultPriority = new CircuitBreakers(config.defaultPriority());
        this.highPriority = new CircuitBreakers(config.highPriority());
    }

    /** The breakers of {@code priority}. */
    public CircuitBreakers of(RoutingPriority priority) {
        return switch (requireNonNull(priority, "priority")) {
            case DEFAULT -> defaultPriority;
            case HIGH -> highPriority;
        };
    }
}
