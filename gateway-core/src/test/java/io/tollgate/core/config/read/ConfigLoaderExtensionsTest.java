package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.HashPolicyConfig;
import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.core.config.HttpHealthCheckConfig;
import io.tollgate.core.config.LoadBalancingConfig;
import io.tollgate.core.extension.ExtensionFactory;
import io.tollgate.core.extension.ExtensionRegistry;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the loader selects extensions by name in the registry it is given and lets each read its own settings. */
class ConfigLoaderExtensionsTest {

    /** The kind of the policies below, as gateway-router's LoadBalancerFactory is. */
    interface Policy extends ExtensionFactory<LoadBalancingConfig> {
        @Override
        default Class<LoadBalancingConfig> configType() {
            return LoadBalancingConfig.class;
        }
    }

    /** A policy without settings. */
    record Plain(String name) implements Policy {
    }

    /** A policy reading {@code table_lb_config: { size }} and the shared {@code hash_policy}. */
    record Table(String name) implements Policy {
        @Override
        public Set<String> keys() {
            return Set.of("table_lb_config", "hash_policy");
        }

        @Override
        public LoadBalancingConfig parse(ConfigNode cluster, LoadBalancingConfig base) {
            int size = cluster.optional("table_lb_config")
                    .map(t -> t.allowOnly(Set.of("size")).integer("size", 7, 2, 101)).orElse(base.maglevTableSize());
            return base.withHashPolicy(cluster.list("hash_policy", HashPolicyConfig::parse)).withMaglevTableSize(size);
        }
    }

    /** A health checker reading {@code probe: { path }} into the http settings. */
    record Probe(String name) implements ExtensionFactory<HealthCheckConfig> {
        @Override
        public Class<HealthCheckConfig> configType() {
            return HealthCheckConfig.class;
        }

        @Override
        public Set<String> keys() {
            return Set.of("probe");
        }

        @Override
        public HealthCheckConfig parse(ConfigNode check, HealthCheckConfig base) {
            return check.optional("probe").map(p -> base.withHttp(new HttpHealthCheckConfig(p.string("path"),
                    HttpHealthCheckConfig.DEFAULTS.expectedStatuses()))).orElse(base);
        }
    }

    /** A policy that claims a key the cluster reads itself. */
    record Greedy(String name) implements Policy {
        @Override
        public Set<String> keys() {
            return Set.of("endpoints");
        }
    }

    private static final ExtensionRegistry EXTENSIONS = ExtensionRegistry.of(List.of(new Plain("round_robin"),
            new Table("table"), new Table("big_table"), new Probe("probe"), new Plain("unused")));

    private static ClusterConfig cluster(String fields) {
        return ConfigLoader.parse("clusters: [{ name: c, " + fields + " }]", EXTENSIONS).clusters().get(0);
    }

    private static void assertRejected(String fields, String message) {
        assertThatThrownBy(() -> cluster(fields)).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    @Test
    void letsTheSelectedPolicyReadItsOwnSettings() {
        ClusterConfig cluster = cluster(
                "lb_policy: table, table_lb_config: { size: 11 }, hash_policy: [{ header: X-A }]");

        assertThat(cluster.lbPolicy()).isEqualTo("table");
        assertThat(cluster.loadBalancing()).isEqualTo(LoadBalancingConfig.DEFAULTS.withMaglevTableSize(11)
                .withHashPolicy(List.of(new HashPolicyConfig(HashPolicyConfig.Source.HEADER, "x-a", false))));
        assertThat(cluster("lb_policy: round_robin").loadBalancing()).isEqualTo(LoadBalancingConfig.DEFAULTS);
    }

    @Test
    void namesThePathOfAnErrorInAPolicysOwnSettings() {
        assertRejected("lb_policy: table, table_lb_config: { size: 1 }",
                "clusters[0].table_lb_config.size: 1 (expected: 2..101)");
        assertRejected("lb_policy: table, table_lb_config: { sise: 1 }",
                "clusters[0].table_lb_config.sise: unknown field (expected one of [size])");
    }

    @Test
    void rejectsAnUnknownPolicyListingTheRegisteredOnesSorted() {
        assertRejected("lb_policy: fastest", "clusters[0].lb_policy: unknown policy 'fastest'"
                + " (expected one of [big_table, round_robin, table, unused])");
    }

    @Test
    void rejectsASettingOnlyOtherPoliciesRead() {
        assertRejected("lb_policy: round_robin, table_lb_config: { size: 11 }",
                "clusters[0].table_lb_config: only applies to lb_policy big_table or table (lb_policy is round_robin)");
    }

    @Test
    void acceptsOnClustersTheKeysOfEveryRegisteredPolicyAndNoOthers() {
        assertRejected("lb_policy: table, ring_hash_lb_config: {}", "clusters[0].ring_hash_lb_config: unknown field"
                + " (expected one of [circuit_breakers, connect_timeout, connections_per_host, discovery,"
                + " dns_failure_refresh_rate,"
                + " dns_lookup_family, dns_min_refresh_rate, dns_query_timeout, dns_refresh_rate, dns_resolvers,"
                + " endpoints, hash_policy, health_check, heartbeat_interval, idle_timeout, lb_policy,"
                + " max_connections_per_host, max_pending_requests, name, original_dst, outlier_detection, panic_threshold_percent,"
                + " protocol, proxy_protocol, respect_dns_ttl, subset_lb_config, table_lb_config, tls, type])");
    }

    @Test
    void letsTheSelectedHealthCheckerReadItsOwnSettings() {
        HealthCheckConfig check = cluster("health_check: { type: probe, interval: 2s, probe: { path: /ping } }")
                .healthCheck().orElseThrow();

        assertThat(check.type()).isEqualTo("probe");
        assertThat(check.interval()).hasSeconds(2);
        assertThat(check.http().path()).isEqualTo("/ping");
        assertRejected("health_check: { type: tcp }",
                "clusters[0].health_check.type: unknown type 'tcp' (expected one of [probe])");
    }

    @Test
    void failsWhenAnExtensionClaimsAKeyTheConfigurationReadsItself() {
        ExtensionRegistry greedy = ExtensionRegistry.of(List.of(new Plain("round_robin"), new Greedy("greedy")));

        assertThatThrownBy(() -> ConfigLoader.parse("clusters: [{ name: c }]", greedy))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("LoadBalancingConfig extensions read 'endpoints',"
                        + " a key the configuration itself reads there");
    }
}
