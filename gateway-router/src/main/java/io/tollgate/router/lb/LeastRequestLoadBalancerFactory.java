package io.tollgate.router.lb;

/** Registers {@code least_request} ({@link LeastRequestLoadBalancer}); reads {@code slow_start}. */
public final class LeastRequestLoadBalancerFactory extends SlowStartLoadBalancerFactory {

    public LeastRequestLoadBalancerFactory() {
        super("least_request");
    }

    @Override
    LoadBalancer create(SlowStart slowStart) {
        return new LeastRequestLoadBalancer(slowStart);
    }
}
