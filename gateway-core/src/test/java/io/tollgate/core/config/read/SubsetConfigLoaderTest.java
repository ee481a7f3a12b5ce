package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.SubsetLbConfig.FallbackPolicy;
import io.tollgate.core.config.SubsetLbConfig;
import io.tollgate.core.config.SubsetSelectorConfig.Fallback;
import io.tollgate.core.config.SubsetSelectorConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SubsetConfigLoaderTest {

    private static final String CLUSTER = "clusters[0].subset_lb_config";

    private static GatewayConfig parse(String subsetConfig) {
        return ConfigLoader.parse("""
                listeners:
                  - name: http
                    route_config:
                      virtual_hosts:
                        - name: vh
                          domains: ["*"]
                          routes:
                            - match: { prefix: / }
                              route: { cluster: c, metadata_match: { zone: a, version: v1 } }
                clusters:
                  - name: c
                    subset_lb_config:
                %s
                """.formatted(subsetConfig.indent(6)));
    }

    private static void assertRejected(String subsetConfig, String message) {
        assertThatThrownBy(() -> parse(subsetConfig)).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    @Test
    void readsEveryFieldOfASubsetConfig() {
        GatewayConfig config = parse("""
                fallback_policy: DEFAULT_SUBSET
                default_subset: { version: v1 }
                header_prefix: X-Subset-
                subset_selectors:
                  - keys: [zone]
                  - keys: [zone, version]
                    fallback_policy: KEYS_SUBSET
                    fallback_keys_subset: [zone]
                """);

        assertThat(config.clusters().get(0).subsetLbConfig()).contains(new SubsetLbConfig(
                FallbackPolicy.DEFAULT_SUBSET, Map.of("version", "v1"),
                List.of(new SubsetSelectorConfig(List.of("zone"), Fallback.NOT_DEFINED, List.of()),
                        new SubsetSelectorConfig(List.of("version", "zone"), Fallback.KEYS_SUBSET, List.of("zone"))),
                Optional.of("x-subset-")));
        assertThat(config.listeners().get(0).routeConfig().virtualHosts().get(0).routes().get(0).forward()
                .orElseThrow().metadataMatch()).isEqualTo(Map.of("zone", "a", "version", "v1"));
    }

    @Test
    void defaultsToNoFallbackAndNoHeaders() {
        SubsetLbConfig config = parse("subset_selectors: [{ keys: [zone] }]").clusters().get(0)
                .subsetLbConfig().orElseThrow();

        assertThat(config.fallbackPolicy()).isEqualTo(FallbackPolicy.NO_FALLBACK);
        assertThat(config.headerPrefix()).isEmpty();
        assertThat(config.defaultSubset()).isEmpty();
    }

    @Test
    void rejectsAnUnknownFallbackPolicy() {
        assertRejected("{ fallback_policy: ANY, subset_selectors: [{ keys: [zone] }] }",
                CLUSTER + ".fallback_policy: 'ANY' (expected one of [NO_FALLBACK, ANY_ENDPOINT, DEFAULT_SUBSET])");
    }

    @Test
    void rejectsAConfigWithoutSelectors() {
        assertRejected("{ fallback_policy: ANY_ENDPOINT }", CLUSTER + ".subset_selectors: must list at least one selector");
    }

    @Test
    void rejectsTheSameKeySetTwice() {
        assertRejected("subset_selectors: [{ keys: [a, b] }, { keys: [b, a] }]",
                CLUSTER + ".subset_selectors[1]: keys 'a,b' is already used by " + CLUSTER
                        + ".subset_selectors[0] (expected each keys once)");
    }

    @Test
    void rejectsAKeysSubsetThatIsNotSmaller() {
        assertRejected("""
                subset_selectors:
                  - { keys: [a], fallback_policy: KEYS_SUBSET, fallback_keys_subset: [a] }
                """, CLUSTER + ".subset_selectors[0].fallback_keys_subset: [a] (expected a smaller part of [a])");
    }

    @Test
    void rejectsAKeysSubsetThatNoSelectorHas() {
        assertRejected("""
                subset_selectors:
                  - { keys: [a, b], fallback_policy: KEYS_SUBSET, fallback_keys_subset: [b] }
                  - { keys: [a] }
                """, CLUSTER + ".subset_selectors[0].fallback_keys_subset: [b] (expected the keys of another selector)");
    }

    @Test
    void rejectsAKeysSubsetPolicyWithoutKeys() {
        assertRejected("subset_selectors: [{ keys: [a, b], fallback_policy: KEYS_SUBSET }]",
                CLUSTER + ".subset_selectors[0]: fallback_keys_subset is needed exactly when fallback_policy is KEYS_SUBSET");
    }
}
