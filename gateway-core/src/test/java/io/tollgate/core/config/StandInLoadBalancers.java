package io.tollgate.core.config;

import io.tollgate.core.extension.ExtensionFactory;

/**
 * Load-balancing policies without settings under the router's names, registered for core's tests
 * only (the real ones live in gateway-router, out of this module's reach), so that these tests can
 * load clusters. What each real policy reads is tested in gateway-router.
 */
public abstract class StandInLoadBalancers implements ExtensionFactory<LoadBalancingConfig> {

    private final String name;

    StandInLoadBalancers(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Class<LoadBalancingConfig> configType() {
        return LoadBalancingConfig.class;
    }

    /** {@code round_robin}, the default policy. */
    public static final class RoundRobin extends StandInLoadBalancers {
        public RoundRobin() {
            super("round_robin");
        }
    }

    /** {@code least_request}. */
    public static final class LeastRequest extends StandInLoadBalancers {
        public LeastRequest() {
            super("least_request");
        }
    }

    /** {@code random}. */
    public static final class Random extends StandInLoadBalancers {
        public Random() {
            super("random");
        }
    }

    /** {@code ring_hash}. */
    public static final class RingHash extends StandInLoadBalancers {
        public RingHash() {
            super("ring_hash");
        }
    }

    /** {@code maglev}. */
    public static final class Maglev extends StandInLoadBalancers {
        public Maglev() {
            super("maglev");
        }
    }
}
