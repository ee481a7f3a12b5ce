package io.tollgate.router.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.CircuitBreakersConfig;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.LoadBalancingConfig;
import io.tollgate.router.TestRequest;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.Host;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PanicThresholdTest {

    @Test
    void panicsOnlyBelowTheThreshold() {
        assertThat(PanicThreshold.panics(5, 10, 50)).isFalse();
        assertThat(PanicThreshold.panics(4, 10, 50)).isTrue();
        assertThat(PanicThreshold.panics(0, 10, 50)).isTrue();
        assertThat(PanicThreshold.panics(10, 10, 100)).isFalse();
        assertThat(PanicThreshold.panics(9, 10, 100)).isTrue();
    }

    @Test
    void aThresholdOfZeroNeverPanics() {
        assertThat(PanicThreshold.panics(0, 10, 0)).isFalse();
        assertThat(PanicThreshold.panics(0, 0, 0)).isFalse();
    }

    @Test
    void aClusterInPanicChoosesAmongEveryHost() {
        Cluster cluster = cluster(4, 50);
        cluster.hosts().get(0).healthy(false);
        cluster.hosts().get(1).ejected(true);
        cluster.hosts().get(2).healthy(false);

        assertThat(chosen(cluster)).containsExactlyInAnyOrderElementsOf(cluster.hosts());
    }

    @Test
    void aClusterAtTheThresholdSkipsUnavailableHosts() {
        Cluster cluster = cluster(4, 50);
        cluster.hosts().get(0).healthy(false);
        cluster.hosts().get(1).ejected(true);

        assertThat(chosen(cluster)).containsExactlyInAnyOrder(cluster.hosts().get(2), cluster.hosts().get(3));
    }

    @Test
    void aClusterWithNoAvailableHostChoosesNothingEvenInPanic() {
        Cluster cluster = cluster(2, 50);
        cluster.hosts().get(0).healthy(false);
        cluster.hosts().get(1).ejected(true);

        assertThat(cluster.choose(TestRequest.of("h", "/"))).isNull();
    }

    @Test
    void withoutPanicThresholdOneSurvivorTakesEverything() {
        Cluster cluster = cluster(4, 0);
        cluster.hosts().get(0).healthy(false);
        cluster.hosts().get(1).healthy(false);
        cluster.hosts().get(2).ejected(true);

        assertThat(chosen(cluster)).containsExactly(cluster.hosts().get(3));
    }

    private static Cluster cluster(int hosts, int panicPercent) {
        List<EndpointConfig> endpoints = new ArrayList<>();
        for (int i = 0; i < hosts; i++) {
            endpoints.add(new EndpointConfig("127.0.0.1", 9000 + i, 1, Map.of()));
        }
        return new Cluster(new ClusterConfig("c", "round_robin", endpoints, Duration.ofSeconds(1), 1, 1,
                Duration.ofSeconds(1), ClusterConfig.DEFAULT_CONNECTIONS_PER_HOST, ClusterConfig.DEFAULT_HEARTBEAT_INTERVAL,
                Optional.empty(), Optional.empty(), panicPercent, Optional.empty(), ClusterConfig.HTTP1,
                CircuitBreakersConfig.DEFAULTS, LoadBalancingConfig.DEFAULTS, Optional.empty()));
    }

    private static Set<Host> chosen(Cluster cluster) {
        Set<Host> chosen = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            chosen.add(cluster.choose(TestRequest.of("h", "/")));
        }
        return chosen;
    }
}
