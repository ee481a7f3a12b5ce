package io.tollgate.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.ClusterManager;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopologyJsonTest {

    private static final String CONFIG = """
            listeners:
              - name: http
                route_config:
                  virtual_hosts: [{ name: vh, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: c } }] }]
            clusters:
              - name: c
                endpoints:
                  - { address: 127.0.0.1, port: 9000, labels: { zone: a, version: v1 } }
                  - { address: 127.0.0.1, port: 9001, labels: { zone: b, version: v1 } }
                subset_lb_config:
                  fallback_policy: ANY_ENDPOINT
                  subset_selectors:
                    - keys: [zone]
                    - keys: [zone, version]
                      fallback_policy: KEYS_SUBSET
                      fallback_keys_subset: [zone]
              - name: plain
                endpoints: [{ address: 127.0.0.1, port: 9002 }]
            """;

    private final ClusterManager clusters = ClusterManager.build(ConfigLoader.parse(CONFIG).clusters());

    @Test
    void showsTheSubsetSelectorsAndHowRequestsWereResolved() {
        Cluster cluster = clusters.cluster("c");
        cluster.choose(null, Map.of("zone", "a"));
        cluster.choose(null, Map.of("zone", "a", "version", "v2"));
        cluster.choose(null, Map.of("zone", "c"));
        cluster.choose(null, Map.of("zone", "b"));

        JsonNode subsets = TopologyJson.clusters(clusters).at("/clusters/0/subsets");

        assertThat(subsets.get("fallback_policy").asText()).isEqualTo("ANY_ENDPOINT");
        assertThat(subsets.at("/selectors/0/keys").toString()).isEqualTo("[\"zone\"]");
        assertThat(subsets.at("/selectors/1/keys").toString()).isEqualTo("[\"version\",\"zone\"]");
        assertThat(subsets.at("/selectors/1/fallback_policy").asText()).isEqualTo("KEYS_SUBSET");
        assertThat(subsets.at("/selectors/1/fallback_keys_subset").toString()).isEqualTo("[\"zone\"]");
        assertThat(subsets.get("exact_matches").asLong()).isEqualTo(2);
        assertThat(subsets.get("keys_subset_fallbacks").asLong()).isEqualTo(1);
        assertThat(subsets.get("policy_fallbacks").asLong()).isEqualTo(1);
        assertThat(subsets.get("no_host").asLong()).isZero();
    }

    @Test
    void showsNoSubsetsForAClusterWithout() {
        assertThat(TopologyJson.clusters(clusters).at("/clusters/1").has("subsets")).isFalse();
    }
}
