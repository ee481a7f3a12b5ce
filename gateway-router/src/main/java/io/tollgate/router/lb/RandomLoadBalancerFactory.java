package io.tollgate.router.lb;

import io.tollgate.core.config.LoadBalancingConfig;
import java.util.function.LongSupplier;

/** Registers {@code random} ({@link RandomLoadBalancer}), which has no settings. */
public final class RandomLoadBalancerFactory implements LoadBalancerFactory {

    @Override
    public String name() {
        return "random";
    }

    @Override
    public LoadBalancer create(LoadBalancingConfig settings, LongSupplier nanoClock) {
        return new RandomLoadBalancer();
    }
}
