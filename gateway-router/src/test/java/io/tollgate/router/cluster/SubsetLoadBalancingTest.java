package io.tollgate.router.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.router.TestRequest;
import io.tollgate.router.host.Host;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SubsetLoadBalancingTest {

    private static final TestRequest NO_HEADERS = TestRequest.of("h", "/");

    /** Four hosts, ports 1..4: zone a/a/b/b, version v1/v2/v1/v2, port 4 with weight 3. */
    private static Cluster cluster(String lbPolicy, String subsetConfig) {
        return new Cluster(ConfigLoader.parse("""
                clusters:
                  - name: c
                    lb_policy: %s
                    endpoints:
                      - { address: 127.0.0.1, port: 1, labels: { zone: a, version: v1 } }
                      - { address: 127.0.0.1, port: 2, labels: { zone: a, version: v2 } }
                      - { address: 127.0.0.1, port: 3, labels: { zone: b, version: v1 } }
                      - { address: 127.0.0.1, port: 4, weight: 3, labels: { zone: b, version: v2 } }
                    subset_lb_config:
                %s
                """.formatted(lbPolicy, subsetConfig.indent(6))).clusters().get(0));
    }

    private static final String SELECTORS = """
            fallback_policy: ANY_ENDPOINT
            default_subset: { version: v1 }
            header_prefix: x-subset-
            subset_selectors:
              - keys: [zone]
              - keys: [zone, version]
                fallback_policy: KEYS_SUBSET
                fallback_keys_subset: [zone]
              - keys: [version]
                fallback_policy: DEFAULT_SUBSET
            """;

    private static Map<Integer, Integer> draws(Cluster cluster, TestRequest request, Map<String, String> match, int n) {
        Map<Integer, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            counts.merge(cluster.choose(request, match).address().getPort(), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void hashTablesOfTheSubsetsAnUpdateChangedAreBuiltBeforeItIsPublishedNotOnARequestsPath() {
        for (String policy : List.of("ring_hash", "maglev")) {
            Cluster cluster = cluster(policy, SELECTORS);
            assertThat(subset(cluster, Map.of("zone", "a")).hasDerived()).as(policy + " at start").isTrue();

            cluster.update(List.of(new EndpointConfig("127.0.0.1", 5, 1, Map.of("zone", "a", "version", "v1"))),
                    List.of());

            for (Map<String, String> match : List.of(Map.of("zone", "a"), Map.of("zone", "a", "version", "v1"),
                    Map.of("version", "v1"))) {
                HostCandidates subset = subset(cluster, match);
                assertThat(subset.size()).as(policy + " " + match).isGreaterThan(1);
                assertThat(subset.hasDerived()).as(policy + " " + match).isTrue();
            }
        }
    }

    private static HostCandidates subset(Cluster cluster, Map<String, String> match) {
        return (HostCandidates) cluster.candidates(NO_HEADERS, match);
    }

    @Test
    void routesToTheSubsetNamedByTheRouteMetadata() {
        Cluster cluster = cluster("round_robin", SELECTORS);

        assertThat(draws(cluster, NO_HEADERS, Map.of("zone", "a"), 10)).containsOnlyKeys(1, 2);
        assertThat(draws(cluster, NO_HEADERS, Map.of("zone", "b", "version", "v1"), 10)).containsOnlyKeys(3);
        assertThat(cluster.subsetStats().exactMatches()).isEqualTo(20);
    }

    @Test
    void letsASubsetHeaderOverrideTheRouteMetadata() {
        Cluster cluster = cluster("random", SELECTORS);
        TestRequest request = TestRequest.of("h", "/").header("x-subset-zone", "b");

        assertThat(draws(cluster, request, Map.of("zone", "a"), 50)).containsOnlyKeys(3, 4);
        assertThat(draws(cluster, request, Map.of(), 50)).containsOnlyKeys(3, 4);
    }

    @Test
    void fallsBackToTheSmallerKeySetWhenTheFullSubsetIsMissing() {
        Cluster cluster = cluster("round_robin", SELECTORS);

        assertThat(draws(cluster, NO_HEADERS, Map.of("zone", "a", "version", "v9"), 10)).containsOnlyKeys(1, 2);
        assertThat(cluster.subsetStats().keysSubsetFallbacks()).isEqualTo(10);
    }

    @Test
    void fallsBackToTheSelectorsDefaultSubset() {
        Cluster cluster = cluster("round_robin", SELECTORS);

        assertThat(draws(cluster, NO_HEADERS, Map.of("version", "v9"), 10)).containsOnlyKeys(1, 3);
        assertThat(cluster.subsetStats().policyFallbacks()).isEqualTo(10);
    }

    @Test
    void fallsBackToAnyEndpointWhenNoSelectorHasTheRequestsKeys() {
        Cluster cluster = cluster("round_robin", SELECTORS);

        assertThat(draws(cluster, NO_HEADERS, Map.of("rack", "r1"), 40)).containsOnlyKeys(1, 2, 3, 4);
        assertThat(draws(cluster, NO_HEADERS, Map.of(), 40)).containsOnlyKeys(1, 2, 3, 4);
        assertThat(cluster.subsetStats().policyFallbacks()).isEqualTo(80);
    }

    @Test
    void choosesNothingWithNoFallbackWhenTheSubsetIsMissing() {
        Cluster cluster = cluster("round_robin", "subset_selectors: [{ keys: [zone] }]");

        assertThat(cluster.choose(NO_HEADERS, Map.of("zone", "c"))).isNull();
        assertThat(cluster.choose(NO_HEADERS, Map.of("zone", "a"))).isNotNull();
        assertThat(cluster.subsetStats().noHost()).isOne();
    }

    @Test
    void treatsASubsetWhoseHostsAreAllUnhealthyAsMissing() {
        Cluster cluster = cluster("round_robin", SELECTORS);
        cluster.hosts().get(2).healthy(false);

        assertThat(draws(cluster, NO_HEADERS, Map.of("zone", "b", "version", "v1"), 10)).containsOnlyKeys(4);
        assertThat(cluster.subsetStats().keysSubsetFallbacks()).isEqualTo(10);

        cluster.hosts().get(2).healthy(true);

        assertThat(draws(cluster, NO_HEADERS, Map.of("zone", "b", "version", "v1"), 10)).containsOnlyKeys(3);
    }

    @Test
    void followsRelabelledAddedAndRemovedHosts() {
        Cluster cluster = cluster("round_robin", SELECTORS);
        Host before = cluster.hosts().get(0);
        before.requestStarted();

        cluster.update(List.of(new EndpointConfig("127.0.0.1", 1, 1, Map.of("zone", "b", "version", "v1")),
                new EndpointConfig("127.0.0.1", 5, 1, Map.of("zone", "a", "version", "v1"))), List.of("127.0.0.1:2"));

        assertThat(draws(cluster, NO_HEADERS, Map.of("zone", "a"), 10)).containsOnlyKeys(5);
        assertThat(draws(cluster, NO_HEADERS, Map.of("zone", "b", "version", "v1"), 10)).containsOnlyKeys(1, 3);
        Host after = cluster.hosts().stream().filter(h -> h.id().equals("127.0.0.1:1")).findFirst().orElseThrow();
        assertThat(after.activeRequests()).isOne();
        before.healthy(false);
        assertThat(draws(cluster, NO_HEADERS, Map.of("zone", "b", "version", "v1"), 10)).containsOnlyKeys(3);
    }

    @Test
    void reusesTheIndexOfARemovedHost() {
        Cluster cluster = cluster("round_robin", SELECTORS);

        cluster.update(List.of(), List.of("127.0.0.1:2"));
        cluster.update(List.of(new EndpointConfig("127.0.0.1", 9, 1, Map.of("zone", "a"))), List.of());

        assertThat(cluster.hosts()).extracting(Host::id)
                .containsExactly("127.0.0.1:1", "127.0.0.1:9", "127.0.0.1:3", "127.0.0.1:4");
    }

    @Test
    void replacesTheWholeEndpointList() {
        Cluster cluster = cluster("round_robin", SELECTORS);

        cluster.replaceEndpoints(List.of(new EndpointConfig("127.0.0.1", 4, 3, Map.of("zone", "a"))));

        assertThat(cluster.hosts()).extracting(Host::id).containsExactly("127.0.0.1:4");
        assertThat(draws(cluster, NO_HEADERS, Map.of("zone", "a"), 5)).containsOnlyKeys(4);
    }

    @Test
    void roundRobinsThroughASubsetInProportionToWeights() {
        Cluster cluster = cluster("round_robin", SELECTORS);

        assertThat(draws(cluster, NO_HEADERS, Map.of("zone", "b"), 400)).containsEntry(3, 100).containsEntry(4, 300);
    }

    @Test
    void drawsRandomHostsOfASubsetInProportionToWeights() {
        Cluster cluster = cluster("random", SELECTORS);

        Map<Integer, Integer> counts = draws(cluster, NO_HEADERS, Map.of("zone", "b"), 40_000);

        assertThat(counts).containsOnlyKeys(3, 4);
        assertThat(counts.get(4) / 40_000.0).isCloseTo(0.75, within(0.015));
    }

    @Test
    void spreadsLeastRequestOverASubset() {
        Cluster cluster = cluster("least_request", SELECTORS);

        Map<Integer, Integer> counts = draws(cluster, NO_HEADERS, Map.of("zone", "a"), 40_000);

        assertThat(counts).containsOnlyKeys(1, 2);
        assertThat(counts.get(1) / 40_000.0).isCloseTo(0.5, within(0.015));
    }
}
