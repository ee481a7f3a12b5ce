package io.tollgate.router.lb;

/** Registers {@code round_robin}, the default policy ({@link RoundRobinLoadBalancer}); reads {@code slow_start}. */
public final class RoundRobinLoadBalancerFactory extends SlowStartLoadBalancerFactory {

    public RoundRobinLoadBalancerFactory() {
        super("round_robin");
    }

    @Override
    LoadBalancer create(SlowStart slowStart) {
        return new RoundRobinLoadBalancer(slowStart);
    }
}
