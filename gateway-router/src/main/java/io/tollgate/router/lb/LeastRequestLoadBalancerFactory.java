package io.tollgate.router.lb;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.LoadBalancingConfig;
import java.util.Set;
import java.util.function.LongSupplier;

/** Registers {@code least_request} ({@link LeastRequestLoadBalancer}); reads {@code slow_start}. */
public final class LeastRequestLoadBalancerFactory implements LoadBalancerFactory {

    @Override
    public String name() {
        return "least_request";
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
        return new LeastRequestLoadBalancer(SlowStart.of(settings.slowStart(), nanoClock));
    }
}
