package io.tollgate.router.lb;

import io.tollgate.core.config.LoadBalancingConfig;
import io.tollgate.core.extension.ExtensionFactory;
import java.util.function.LongSupplier;

/**
 * The kind of extension that load-balancing policies are ({@code lb_policy}): one implementation
 * per policy, listed in {@code META-INF/services/io.tollgate.core.extension.ExtensionFactory} and
 * found by name in the {@link io.tollgate.core.extension.ExtensionRegistry}. It reads the settings
 * it owns from the cluster's node into {@link LoadBalancingConfig} when the configuration is
 * loaded, and makes a balancer from them for each cluster.
 */
public interface LoadBalancerFactory extends ExtensionFactory<LoadBalancingConfig> {

    @Override
    default Class<LoadBalancingConfig> configType() {
        return LoadBalancingConfig.class;
    }

    /**
     * A new balancer for one cluster, from the settings {@link #parse} returned (or defaults);
     * {@code nanoClock} is the time source of slow start, the one hosts'
     * {@link io.tollgate.router.host.Host#addedAtNanos()} was read from.
     */
    LoadBalancer create(LoadBalancingConfig settings, LongSupplier nanoClock);
}
