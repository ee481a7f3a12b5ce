package io.tollgate.router.lb;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.HashPolicyConfig;
import io.tollgate.core.config.LoadBalancingConfig;
import java.util.Set;
import java.util.function.LongSupplier;

/** Registers {@code maglev} ({@link MaglevLoadBalancer}); reads {@code hash_policy} and {@code maglev_lb_config: { table_size }}. */
public final class MaglevLoadBalancerFactory implements LoadBalancerFactory {

    @Override
    public String name() {
        return "maglev";
    }

    @Override
    public Set<String> keys() {
        return Set.of("hash_policy", "maglev_lb_config");
    }

    @Override
    public LoadBalancingConfig parse(ConfigNode cluster, LoadBalancingConfig base) {
        LoadBalancingConfig settings = cluster.optional("maglev_lb_config").map(maglev -> {
            int tableSize = maglev.allowOnly(Set.of("table_size")).integer("table_size", base.maglevTableSize(), 2,
                    5_000_011);
            if (!LoadBalancingConfig.isPrime(tableSize)) {
                throw maglev.child("table_size").error(tableSize + " (expected a prime, e.g. 65537 or 5000011)");
            }
            return base.withMaglevTableSize(tableSize);
        }).orElse(base);
        return settings.withHashPolicy(cluster.list("hash_policy", HashPolicyConfig::parse));
    }

    @Override
    public LoadBalancer create(LoadBalancingConfig settings, LongSupplier nanoClock) {
        return new MaglevLoadBalancer(HashPolicy.of(settings.hashPolicy()), settings.maglevTableSize());
    }
}
