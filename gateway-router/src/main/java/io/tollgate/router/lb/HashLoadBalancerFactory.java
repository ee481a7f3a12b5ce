package io.tollgate.router.lb;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.HashPolicyConfig;
import io.tollgate.core.config.LoadBalancingConfig;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * What the hashing policies share: they read {@code hash_policy} and one block of settings of
 * their own, and make their balancer around the cluster's {@link HashPolicy}.
 */
abstract class HashLoadBalancerFactory implements LoadBalancerFactory {

    private final String name;
    private final String block;

    /** {@code block} is the key of the policy's own settings, e.g. {@code ring_hash_lb_config}. */
    HashLoadBalancerFactory(String name, String block) {
        this.name = name;
        this.block = block;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Set<String> keys() {
        return Set.of("hash_policy", block);
    }

    @Override
    public final LoadBalancingConfig parse(ConfigNode cluster, LoadBalancingConfig base) {
        LoadBalancingConfig settings = cluster.optional(block).map(n -> parseBlock(n, base)).orElse(base);
        return settings.withHashPolicy(cluster.list("hash_policy", HashPolicyConfig::parse));
    }

    @Override
    public final LoadBalancer create(LoadBalancingConfig settings, LongSupplier nanoClock) {
        return create(HashPolicy.of(settings.hashPolicy()), settings);
    }

    /** {@code base} with the settings of the policy's own block, {@code n}, validated. */
    abstract LoadBalancingConfig parseBlock(ConfigNode n, LoadBalancingConfig base);

    /** The balancer hashing requests by {@code hashPolicy}, sized by {@code settings}. */
    abstract LoadBalancer create(HashPolicy hashPolicy, LoadBalancingConfig settings);
}
