package io.tollgate.router.lb;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.LoadBalancingConfig;
import java.util.Set;

/**
 * Registers {@code maglev} ({@link MaglevLoadBalancer}); reads {@code hash_policy} and
 * {@code maglev_lb_config: { table_size }}.
 */
public final class MaglevLoadBalancerFactory extends HashLoadBalancerFactory {

    public MaglevLoadBalancerFactory() {
        super("maglev", "maglev_lb_config");
    }

    @Override
    LoadBalancingConfig parseBlock(ConfigNode maglev, LoadBalancingConfig base) {
        maglev.allowOnly(Set.of("table_size"));
        int tableSize = maglev.integer("table_size", base.maglevTableSize(), 2, 5_000_011);
        if (!LoadBalancingConfig.isPrime(tableSize)) {
            throw maglev.child("table_size").error(tableSize + " (expected a prime, e.g. 65537 or 5000011)");
        }
        return base.withMaglevTableSize(tableSize);
    }

    @Override
    LoadBalancer create(HashPolicy hashPolicy, LoadBalancingConfig settings) {
        return new MaglevLoadBalancer(hashPolicy, settings.maglevTableSize());
    }
}
