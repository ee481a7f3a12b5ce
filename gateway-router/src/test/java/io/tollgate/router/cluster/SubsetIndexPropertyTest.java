package io.tollgate.router.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.SubsetLbConfig.FallbackPolicy;
import io.tollgate.core.config.SubsetLbConfig;
import io.tollgate.core.config.SubsetSelectorConfig.Fallback;
import io.tollgate.core.config.SubsetSelectorConfig;
import io.tollgate.router.TestRequest;
import io.tollgate.router.cluster.SubsetReference.Answer;
import io.tollgate.router.host.Host;
import io.tollgate.router.lb.Candidates;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random clusters, selectors, requests and endpoint updates: the bitmap index must offer exactly
 * the hosts the {@link SubsetReference} finds by scanning, count the same outcome, and choose a
 * host if and only if it says a subset exists.
 */
class SubsetIndexPropertyTest {

    private static final List<String> KEYS = List.of("a", "b", "c", "d");
    private static final List<String> POLICIES = List.of("round_robin", "random", "least_request", "ring_hash",
            "maglev");

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void offersTheSameHostsAsTheReferenceThroughIncrementalUpdates(long seed) {
        Random random = new Random(seed);
        SubsetLbConfig subsets = randomConfig(random);
        SubsetReference reference = new SubsetReference(subsets);
        List<EndpointConfig> endpoints = new ArrayList<>();
        int nextPort = 1;
        for (int i = random.nextInt(40); i > 0; i--) {
            endpoints.add(randomEndpoint(random, nextPort++));
        }
        endpoints.forEach(reference::put);
        Cluster cluster = new Cluster(new ClusterConfig("c", POLICIES.get(random.nextInt(POLICIES.size())), endpoints,
                Duration.ofSeconds(1), 1, 1, Duration.ofSeconds(1)).withSubsetLbConfig(Optional.of(subsets)));

        for (int round = 0; round < 15; round++) {
            compare(random, cluster, reference, subsets);
            List<EndpointConfig> upserts = new ArrayList<>();
            List<String> removed = new ArrayList<>();
            List<String> ids = cluster.hosts().stream().map(Host::id).toList();
            for (int change = random.nextInt(8); change > 0; change--) {
                int kind = random.nextInt(4);
                if (kind == 0 || ids.isEmpty()) {
                    upserts.add(randomEndpoint(random, nextPort++));
                } else if (kind == 1) {
                    removed.add(ids.get(random.nextInt(ids.size())));
                } else {
                    String id = ids.get(random.nextInt(ids.size()));
                    upserts.add(randomEndpoint(random, Integer.parseInt(id.substring(id.indexOf(':') + 1))));
                }
            }
            upserts.removeIf(e -> removed.contains(Host.idOf(e)));
            cluster.update(upserts, removed);
            removed.forEach(reference::remove);
            upserts.forEach(reference::put);
            for (Host host : cluster.hosts()) {
                if (random.nextInt(5) == 0) {
                    boolean healthy = random.nextBoolean();
                    host.healthy(healthy);
                    reference.healthy(host.id(), healthy);
                }
            }
        }
    }

    private static void compare(Random random, Cluster cluster, SubsetReference reference, SubsetLbConfig subsets) {
        for (int i = 0; i < 60; i++) {
            Map<String, String> routeMatch = randomLabels(random, List.of("a", "b", "c", "d", "e"), 3);
            TestRequest request = TestRequest.of("h", "/");
            subsets.headerPrefix().ifPresent(prefix -> randomLabels(random, KEYS, 3)
                    .forEach((k, v) -> request.header(prefix + k, v)));
            Answer expected = reference.answer(request, routeMatch);

            Map<SubsetReference.Outcome, Long> before = outcomes(cluster.subsetStats());
            Candidates candidates = cluster.candidates(request, routeMatch);
            Map<SubsetReference.Outcome, Long> after = outcomes(cluster.subsetStats());

            String context = request + " " + routeMatch;
            assertThat(ids(candidates)).as(context).isEqualTo(expected.hostIds());
            assertThat(after.get(expected.outcome()) - before.get(expected.outcome())).as(context).isOne();
            Host chosen = cluster.choose(request, routeMatch);
            if (expected.hostIds() == null) {
                assertThat(chosen).as(context).isNull();
            } else {
                assertThat(expected.hostIds()).as(context).contains(chosen.id());
                assertThat(candidates.totalWeight()).isEqualTo(weights(candidates));
            }
        }
    }

    private static Set<String> ids(Candidates candidates) {
        if (candidates == null) {
            return null;
        }
        Set<String> ids = new TreeSet<>();
        for (int rank = 0; rank < candidates.size(); rank++) {
            ids.add(candidates.host(rank).id());
        }
        assertThat(ids).hasSize(candidates.size());
        return ids;
    }

    private static long weights(Candidates candidates) {
        long sum = 0;
        for (int rank = 0; rank < candidates.size(); rank++) {
            Host host = candidates.host(rank);
            assertThat(candidates.hostAtWeight(sum)).isSameAs(host);
            sum += host.weight();
            assertThat(candidates.hostAtWeight(sum - 1)).isSameAs(host);
        }
        return sum;
    }

    private static Map<SubsetReference.Outcome, Long> outcomes(SubsetStats stats) {
        Map<SubsetReference.Outcome, Long> outcomes = new EnumMap<>(SubsetReference.Outcome.class);
        outcomes.put(SubsetReference.Outcome.EXACT, stats.exactMatches());
        outcomes.put(SubsetReference.Outcome.KEYS_SUBSET, stats.keysSubsetFallbacks());
        outcomes.put(SubsetReference.Outcome.POLICY, stats.policyFallbacks());
        outcomes.put(SubsetReference.Outcome.NONE, stats.noHost());
        return outcomes;
    }

    private static EndpointConfig randomEndpoint(Random random, int port) {
        int weight = random.nextInt(4) == 0 ? 1 + random.nextInt(5) : 1;
        return new EndpointConfig("127.0.0.1", port, weight, randomLabels(random, KEYS, 4));
    }

    private static Map<String, String> randomLabels(Random random, List<String> keys, int maxValues) {
        Map<String, String> labels = new HashMap<>();
        for (String key : keys) {
            if (random.nextInt(3) != 0) {
                labels.put(key, "v" + random.nextInt(1 + random.nextInt(maxValues)));
            }
        }
        return labels;
    }

    private static SubsetLbConfig randomConfig(Random random) {
        List<List<String>> keySets = new ArrayList<>();
        for (int i = 1 + random.nextInt(6); i > 0; i--) {
            List<String> keys = KEYS.stream().filter(k -> random.nextBoolean()).toList();
            if (!keys.isEmpty() && !keySets.contains(keys)) {
                keySets.add(keys);
            }
        }
        if (keySets.isEmpty()) {
            keySets.add(List.of("a"));
        }
        List<SubsetSelectorConfig> selectors = new ArrayList<>();
        Fallback[] fallbacks = Fallback.values();
        for (List<String> keys : keySets) {
            List<List<String>> smaller = keySets.stream()
                    .filter(other -> other.size() < keys.size() && keys.containsAll(other)).toList();
            Fallback fallback = fallbacks[random.nextInt(fallbacks.length)];
            if (fallback == Fallback.KEYS_SUBSET && smaller.isEmpty()) {
                fallback = Fallback.NOT_DEFINED;
            }
            selectors.add(new SubsetSelectorConfig(keys, fallback,
                    fallback == Fallback.KEYS_SUBSET ? smaller.get(random.nextInt(smaller.size())) : List.of()));
        }
        FallbackPolicy[] policies = FallbackPolicy.values();
        return new SubsetLbConfig(policies[random.nextInt(policies.length)], randomLabels(random, KEYS, 2)
                .entrySet().stream().limit(2).collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)),
                selectors, random.nextBoolean() ? Optional.of("x-subset-") : Optional.empty());
    }
}
