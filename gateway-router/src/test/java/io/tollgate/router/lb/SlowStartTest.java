package io.tollgate.router.lb;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.LoadBalancingConfig;
import io.tollgate.core.config.SlowStartConfig;
import io.tollgate.router.cluster.Cluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SlowStartTest {

    private static final Duration WINDOW = Duration.ofSeconds(30);
    private static final int DRAWS = 30_000;
    private static final String NEW_HOST = "127.0.0.1:3";

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);

    private Cluster clusterWithANewHost(String policy, double aggression) {
        List<EndpointConfig> endpoints = List.of(new EndpointConfig("127.0.0.1", 1, 1, Map.of()),
                new EndpointConfig("127.0.0.1", 2, 1, Map.of()));
        LoadBalancingConfig settings = LoadBalancingConfig.DEFAULTS.withSlowStart(
                Optional.of(new SlowStartConfig(WINDOW, aggression, 10)));
        Cluster cluster = new Cluster(new ClusterConfig("c", policy, endpoints, Duration.ofSeconds(1), 1, 1,
                Duration.ofSeconds(1)).withLoadBalancing(settings), clock::get);
        cluster.update(List.of(new EndpointConfig("127.0.0.1", 3, 1, Map.of())), List.of());
        return cluster;
    }

    private double newHostShareAfter(Cluster cluster, Duration elapsed) {
        clock.set(1_000_000_000L + elapsed.toNanos());
        int chosen = 0;
        for (int i = 0; i < DRAWS; i++) {
            chosen += cluster.choose(null).id().equals(NEW_HOST) ? 1 : 0;
        }
        return (double) chosen / DRAWS;
    }

    /** The share of one of three equal hosts whose weight counts {@code factor} of itself. */
    private static double expectedShare(double factor) {
        return factor / (2 + factor);
    }

    @ParameterizedTest
    @ValueSource(strings = {"round_robin", "least_request"})
    void rampsANewHostFromItsMinimumWeightToItsFullShareOverTheWindow(String policy) {
        Cluster cluster = clusterWithANewHost(policy, 1.0);

        double atStart = newHostShareAfter(cluster, Duration.ZERO);
        double halfway = newHostShareAfter(cluster, WINDOW.dividedBy(2));
        double atEnd = newHostShareAfter(cluster, WINDOW);

        assertThat(atStart).isBetween(expectedShare(0.1) * 0.7, expectedShare(0.1) * 1.3);
        assertThat(halfway).isBetween(expectedShare(0.5) * 0.85, expectedShare(0.5) * 1.15);
        assertThat(atEnd).isBetween(expectedShare(1) * 0.9, expectedShare(1) * 1.1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"round_robin", "least_request"})
    void aHigherAggressionRampsFasterEarlyInTheWindow(String policy) {
        Cluster cluster = clusterWithANewHost(policy, 2.0);

        double quarter = newHostShareAfter(cluster, WINDOW.dividedBy(4));

        assertThat(quarter).isBetween(expectedShare(0.5) * 0.85, expectedShare(0.5) * 1.15);
    }

    @ParameterizedTest
    @ValueSource(strings = {"round_robin", "least_request"})
    void hostsOfTheFirstVersionTakeTheirFullShareAtOnce(String policy) {
        Cluster cluster = clusterWithANewHost(policy, 1.0);
        clock.set(1_000_000_000L);

        int first = 0;
        for (int i = 0; i < DRAWS; i++) {
            first += cluster.choose(null).id().equals("127.0.0.1:1") ? 1 : 0;
        }

        double expected = 1 / (2 + 0.1);
        assertThat((double) first / DRAWS).isBetween(expected * 0.9, expected * 1.1);
    }
}
