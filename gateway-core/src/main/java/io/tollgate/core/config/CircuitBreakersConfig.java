package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

/**
 * A cluster's circuit breakers (Envoy's {@code circuit_breakers}): one set of limits per
 * {@link RoutingPriority}, each counted apart, so that overflowing one priority leaves the other
 * serving.
 *
 * @param defaultPriority the limits of requests of routes with the default priority
 * @param highPriority the limits of requests of routes with priority {@code high}
 */
public record CircuitBreakersConfig(
        CircuitBreakerThresholdsConfig defaultPriority,
        CircuitBreakerThresholdsConfig highPriority) {

    /** Envoy's defaults for both priorities. */
    public static final CircuitBreakersConfig DEFAULTS =
            new CircuitBreakersConfig(CircuitBreakerThresholdsConfig.DEFAULTS, CircuitBreakerThresholdsConfig.DEFAULTS);

    public CircuitBreakersConfig {
        requireNonNull(defaultPriority, "defaultPriority");
        requireNonNull(highPriority, "highPriority");
    }

    /** The limits of {@code priority}. */
    public CircuitBreakerThresholdsConfig thresholds(RoutingPriority priority) {
        return switch (requireNonNull(priority, "priority")) {
            case DEFAULT -> defaultPriority;
            case HIGH -> highPriority;
        };
    }
}
