package io.tollgate.router.lb;

import io.tollgate.core.config.LoadBalancingConfig;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The registry of load balancers by the name used in configuration ({@code lb_policy}).
 * Immutable; an unknown name is a configuration error caught at load time.
 */
public final class LoadBalancers {

    /** Makes one policy's balancer from the cluster's settings and the clock slow start reads. */
    private interface Factory {
        LoadBalancer create(LoadBalancingConfig settings, LongSupplier nanoClock);
    }

    private static final Map<String, Factory> FACTORIES = Map.of(
            "round_robin", (settings, clock) -> new RoundRobinLoadBalancer(SlowStart.of(settings.slowStart(), clock)),
            "random", (settings, clock) -> new RandomLoadBalancer(),
            "least_request", (settings, clock) -> new LeastRequestLoadBalancer(SlowStart.of(settings.slowStart(), clock)),
            "ring_hash", (settings, clock) -> new RingHashLoadBalancer(HashPolicy.of(settings.hashPolicy()),
                    settings.minimumRingSize(), settings.maximumRingSize()),
            "maglev", (settings, clock) -> new MaglevLoadBalancer(HashPolicy.of(settings.hashPolicy()),
                    settings.maglevTableSize()));

    private LoadBalancers() {
    }

    /** The registered policy names. */
    public static Set<String> names() {
        return FACTORIES.keySet();
    }

    /** {@link #create(String, LoadBalancingConfig, LongSupplier)} with default settings and the system clock. */
    public static LoadBalancer create(String policy) {
        return create(policy, LoadBalancingConfig.DEFAULTS, System::nanoTime);
    }

    /**
     * Creates a new balancer of the named policy; each cluster gets its own. {@code nanoClock}
     * is the time source of slow start, the one hosts' {@link io.tollgate.router.cluster.Host#addedAtNanos()} was read from.
     */
    public static LoadBalancer create(String policy, LoadBalancingConfig settings, LongSupplier nanoClock) {
        Factory factory = FACTORIES.get(policy);
        if (factory == null) {
            throw new IllegalArgumentException("lb_policy: " + policy + " (expected one of " + names() + ")");
        }
        return factory.create(settings, nanoClock);
    }
}
