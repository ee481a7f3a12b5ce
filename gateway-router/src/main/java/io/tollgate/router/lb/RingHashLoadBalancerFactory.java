package io.tollgate.router.lb;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.HashPolicyConfig;
import io.tollgate.core.config.LoadBalancingConfig;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Registers {@code ring_hash} ({@link RingHashLoadBalancer}); reads {@code hash_policy} and
 * {@code ring_hash_lb_config: { minimum_ring_size, maximum_ring_size }}.
 */
public final class RingHashLoadBalancerFactory implements LoadBalancerFactory {

    @Override
    public String name() {
        return "ring_hash";
    }

    @Override
    public Set<String> keys() {
        return Set.of("hash_policy", "ring_hash_lb_config");
    }

    @Override
    public LoadBalancingConfig parse(ConfigNode cluster, LoadBalancingConfig base) {
        LoadBalancingConfig settings = cluster.optional("ring_hash_lb_config").map(ring -> {
            ring.allowOnly(Set.of("minimum_ring_size", "maximum_ring_size"));
            int max = ring.integer("maximum_ring_size", base.maximumRingSize(), 1, 1 << 26);
            int min = ring.integer("minimum_ring_size", Math.min(base.minimumRingSize(), max), 1, max);
            return base.withRingSizes(min, max);
        }).orElse(base);
        return settings.withHashPolicy(cluster.list("hash_policy", HashPolicyConfig::parse));
    }

    @Override
    public LoadBalancer create(LoadBalancingConfig settings, LongSupplier nanoClock) {
        return new RingHashLoadBalancer(HashPolicy.of(settings.hashPolicy()), settings.minimumRingSize(),
                settings.maximumRingSize());
    }
}
