package io.tollgate.router.lb;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.LoadBalancingConfig;
import io.tollgate.core.config.SlowStartConfig;
import java.time.Duration;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * What the policies that ramp new hosts up share: they read {@code slow_start} and make their
 * balancer around the cluster's {@link SlowStart}.
 */
abstract class SlowStartLoadBalancerFactory implements LoadBalancerFactory {

    private final String name;

    SlowStartLoadBalancerFactory(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Set<String> keys() {
        return Set.of("slow_start");
    }

    @Override
    public final LoadBalancingConfig parse(ConfigNode cluster, LoadBalancingConfig base) {
        return base.withSlowStart(cluster.optional("slow_start").map(n -> {
            n.allowOnly(Set.of("window", "aggression", "min_weight_percent"));
            double aggression = n.optional("aggression").map(ConfigNode::asDouble).orElse(1.0);
            if (!(aggression > 0) || Double.isInfinite(aggression)) {
                throw n.child("aggression").error(aggression + " (expected a number > 0)");
            }
            return new SlowStartConfig(n.positiveDuration("window", Duration.ofSeconds(30)), aggression,
                    n.integer("min_weight_percent", 10, 1, 100));
        }));
    }

    @Override
    public final LoadBalancer create(LoadBalancingConfig settings, LongSupplier nanoClock) {
        return create(SlowStart.of(settings.slowStart(), nanoClock));
    }

    /** The balancer, ramping new hosts up with {@code slowStart}; null for none. */
    abstract LoadBalancer create(SlowStart slowStart);
}
