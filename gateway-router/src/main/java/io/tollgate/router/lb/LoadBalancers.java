package io.tollgate.router.lb;

import io.tollgate.core.config.LoadBalancingConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Load balancers by the name used in configuration ({@code lb_policy}): the
 * {@link LoadBalancerFactory}s of {@link ExtensionRegistry#defaults()}, the registry the
 * configuration was checked against, so an unknown name here is a bug, not a configuration error.
 */
public final class LoadBalancers {

    private LoadBalancers() {
    }

    /** The registered policy names, sorted. */
    public static Set<String> names() {
        return ExtensionRegistry.defaults().names(LoadBalancingConfig.class);
    }

    /** {@link #create(String, LoadBalancingConfig, LongSupplier)} with default settings and the system clock. */
    public static LoadBalancer create(String policy) {
        return create(policy, LoadBalancingConfig.DEFAULTS, System::nanoTime);
    }

    /**
     * Creates a new balancer of the named policy; each cluster gets its own. {@code nanoClock}
     * is the time source of slow start, the one hosts'
     * {@link io.tollgate.router.host.Host#addedAtNanos()} was read from.
     */
    public static LoadBalancer create(String policy, LoadBalancingConfig settings, LongSupplier nanoClock) {
        return ExtensionRegistry.defaults().find(LoadBalancingConfig.class, policy, LoadBalancerFactory.class)
                .orElseThrow(() -> new IllegalArgumentException("lb_policy: " + policy + " (expected one of "
                        + names() + ")"))
                .create(settings, nanoClock);
    }
}
