package io.tollgate.router.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.LoadBalancingConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.extension.ExtensionRegistry;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The policies this module registers, as the configuration loader finds them. */
class LoadBalancerFactoryTest {

    @Test
    void registersEveryPolicyAsALoadBalancerFactoryThatMakesABalancerFromDefaults() {
        ExtensionRegistry registry = ExtensionRegistry.defaults();

        assertThat(registry.names(LoadBalancingConfig.class))
                .containsExactly("least_request", "maglev", "random", "ring_hash", "round_robin");
        for (String policy : registry.names(LoadBalancingConfig.class)) {
            LoadBalancerFactory factory = registry.find(LoadBalancingConfig.class, policy, LoadBalancerFactory.class)
                    .orElseThrow();
            assertThat(factory.create(LoadBalancingConfig.DEFAULTS, System::nanoTime)).as(policy).isNotNull();
        }
    }

    @Test
    void eachPolicyOwnsTheClusterKeysItReads() {
        Map<String, Set<String>> keys = Map.of("round_robin", Set.of("slow_start"), "least_request", Set.of("slow_start"),
                "random", Set.of(), "ring_hash", Set.of("hash_policy", "ring_hash_lb_config"),
                "maglev", Set.of("hash_policy", "maglev_lb_config"));

        keys.forEach((policy, read) -> assertThat(ExtensionRegistry.defaults().find(LoadBalancingConfig.class, policy)
                .orElseThrow().keys()).as(policy).isEqualTo(read));
    }

    @Test
    void rejectsAnUnknownPolicyInConfigurationListingTheRegisteredOnes() {
        assertThatThrownBy(() -> ConfigLoader.parse("clusters: [{ name: c, lb_policy: fastest }]"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("clusters[0].lb_policy: unknown policy 'fastest'"
                        + " (expected one of [least_request, maglev, random, ring_hash, round_robin])");
    }
}
