package io.tollgate.router.lb;

import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The registry of load balancers by the name used in configuration ({@code lb_policy}).
 * Immutable; an unknown name is a configuration error caught at load time.
 */
public final class LoadBalancers {

    private static final Map<String, Supplier<LoadBalancer>> FACTORIES = Map.of(
            "round_robin", RoundRobinLoadBalancer::new,
            "random", RandomLoadBalancer::new,
            "least_request", LeastRequestLoadBalancer::new);

    private LoadBalancers() {
    }

    /** The registered policy names. */
    public static Set<String> names() {
        return FACTORIES.keySet();
    }

    /** Creates a new balancer of the named policy; each cluster gets its own. */
    public static LoadBalancer create(String policy) {
        Supplier<LoadBalancer> factory = FACTORIES.get(policy);
        if (factory == null) {
            throw new IllegalArgumentException("lb_policy: " + policy + " (expected one of " + names() + ")");
        }
        return factory.get();
    }
}
