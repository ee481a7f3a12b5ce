package io.tollgate.router.lb;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.LoadBalancingConfig;
import java.util.Set;
import java.util.function.LongSupplier;

/** Registers {@code round_robin}, the default policy ({@link RoundRobinLoadBalancer}); reads {@code slow_start}. */
public final class RoundRobinLoadBalancerFactory implements LoadBalancerFactory {

    @Override
    public String name() {
        return "round_robin";
    }

    @Override
    public Set<String> keys() {
        return SlowStart.KEYS;
    }

    @Override
    public LoadBalancingConfig parse(ConfigNode cluster, LoadBalancingConfig base) {
        return SlowStart.parse(cluster, base);
    }

    @Override
    public LoadBalancer create(LoadBalancingConfig settings, LongSupplier nanoClock) {
        return new RoundRobinLoadBalancer(SlowStart.of(settings.slowStart(), nanoClock));
    }
}
