package io.tollgate.router.lb;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.LoadBalancingConfig;
import java.util.Set;

/**
 * Registers {@code ring_hash} ({@link RingHashLoadBalancer}); reads {@code hash_policy} and
 * {@code ring_hash_lb_config: { minimum_ring_size, maximum_ring_size }}.
 */
public final class RingHashLoadBalancerFactory extends HashLoadBalancerFactory {

    public RingHashLoadBalancerFactory() {
        super("ring_hash", "ring_hash_lb_config");
    }

    @Override
    LoadBalancingConfig parseBlock(ConfigNode ring, LoadBalancingConfig base) {
        ring.allowOnly(Set.of("minimum_ring_size", "maximum_ring_size"));
        int max = ring.integer("maximum_ring_size", base.maximumRingSize(), 1, 1 << 26);
        int min = ring.integer("minimum_ring_size", Math.min(base.minimumRingSize(), max), 1, max);
        return base.withRingSizes(min, max);
    }

    @Override
    LoadBalancer create(HashPolicy hashPolicy, LoadBalancingConfig settings) {
        return new RingHashLoadBalancer(hashPolicy, settings.minimumRingSize(), settings.maximumRingSize());
    }
}
