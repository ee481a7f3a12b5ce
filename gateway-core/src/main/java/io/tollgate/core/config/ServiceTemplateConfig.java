package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * A cluster that stands for "the providers of each request's own service" (a cluster's
 * {@code discovery: { per_service: ... }}): a route to it sends every call to a cluster of the
 * call's service (Dubbo: interface, group and version; SOFARPC: the service's unique name), made
 * from the template cluster's settings on the service's first call with the providers found in
 * the registry, and dropped once unused for {@code unusedTimeout}.
 *
 * @param registry the name of a registry in {@code registries}
 * @param kind whose registrations and requests the services are read from
 * @param unusedTimeout how long a service's cluster stays without a call before it is dropped
 */
public record ServiceTemplateConfig(String registry, ProviderQueryConfig.Kind kind, Duration unusedTimeout) {

    /** A service's cluster unused this long is dropped by default. */
    public static final Duration DEFAULT_UNUSED_TIMEOUT = Duration.ofMinutes(10);

    public ServiceTemplateConfig {
        requireNonNull(registry, "registry");
        requireNonNull(kind, "kind");
        requireNonNull(unusedTimeout, "unusedTimeout");
    }
}
