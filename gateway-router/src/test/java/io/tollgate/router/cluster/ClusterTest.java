package io.tollgate.router.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.core.config.HttpHealthCheckConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.router.TestRequest;
import io.tollgate.router.host.Host;
import io.tollgate.router.lb.LoadBalancers;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterTest {

    private static final TestRequest REQUEST = TestRequest.of("h", "/");

    private static Cluster cluster(String policy, int hostCount) {
        List<EndpointConfig> endpoints = new ArrayList<>();
        for (int i = 0; i < hostCount; i++) {
            endpoints.add(new EndpointConfig("127.0.0.1", 9000 + i, 1, Map.of("zone", "z" + i)));
        }
        return new Cluster(new ClusterConfig("c", policy, endpoints, Duration.ofSeconds(1), 1, 1, Duration.ofSeconds(1)));
    }

    private static Set<Host> chosen(Cluster cluster, int draws) {
        Set<Host> chosen = new HashSet<>();
        for (int i = 0; i < draws; i++) {
            chosen.add(cluster.choose(REQUEST));
        }
        return chosen;
    }

    @Test
    void skipsUnhealthyHostsWithEveryPolicy() {
        for (String policy : LoadBalancers.names()) {
            Cluster cluster = cluster(policy, 3);
            cluster.hosts().get(1).healthy(false);

            assertThat(chosen(cluster, 200)).as(policy)
                    .containsExactlyInAnyOrder(cluster.hosts().get(0), cluster.hosts().get(2));
        }
    }

    @Test
    void choosesNothingWhenEveryHostIsUnhealthyOrThereAreNone() {
        for (String policy : LoadBalancers.names()) {
            Cluster cluster = cluster(policy, 2);
            cluster.hosts().forEach(host -> host.healthy(false));

            assertThat(cluster.choose(REQUEST)).as(policy).isNull();
            assertThat(cluster(policy, 0).choose(REQUEST)).as(policy).isNull();
        }
    }

    @Test
    void usesAHostAgainOnceItRecovers() {
        Cluster cluster = cluster("round_robin", 2);
        cluster.hosts().get(0).healthy(false);
        assertThat(chosen(cluster, 10)).containsExactly(cluster.hosts().get(1));

        cluster.hosts().get(0).healthy(true);

        assertThat(chosen(cluster, 10)).hasSize(2);
    }

    @Test
    void describesHostsFromTheirEndpoints() {
        Host host = cluster("random", 1).hosts().get(0);

        assertThat(host.id()).isEqualTo("127.0.0.1:9000");
        assertThat(host.address()).isEqualTo(new InetSocketAddress("127.0.0.1", 9000));
        assertThat(host.labels()).containsEntry("zone", "z0");
        host.requestStarted();
        host.requestStarted();
        host.requestFinished();
        assertThat(host.activeRequests()).isOne();
    }

    @Test
    void buildsEveryConfiguredClusterByName() {
        ClusterManager manager = ClusterManager.build(ConfigLoader.parse("""
                clusters:
                  - { name: a, lb_policy: random, endpoints: [{ address: 127.0.0.1, port: 1 }] }
                  - { name: b, lb_policy: least_request, endpoints: [] }
                """).clusters());

        assertThat(manager.clusters()).extracting(Cluster::name).containsExactly("a", "b");
        assertThat(manager.cluster("a").hosts()).hasSize(1);
        assertThat(manager.cluster("b").config().lbPolicy()).isEqualTo("least_request");
        assertThat(manager.cluster("c")).isNull();
    }

    @Test
    void acceptsInConfigurationEveryRegisteredPolicy() {
        for (String policy : LoadBalancers.names()) {
            ClusterConfig config = ConfigLoader.parse("clusters: [{ name: c, lb_policy: " + policy + " }]")
                    .clusters().get(0);

            assertThat(new Cluster(config).config().lbPolicy()).isEqualTo(policy);
        }
    }

    @Test
    void aRetryHostIsAnotherThanTheExcludedWhenThereIsOne() {
        Cluster cluster = cluster("random", 3);
        Host excluded = cluster.hosts().get(1);

        for (int i = 0; i < 200; i++) {
            assertThat(cluster.chooseExcluding(REQUEST, Map.of(), excluded::equals)).isNotEqualTo(excluded);
        }
    }

    @Test
    void aRetryGoesToAnExcludedHostWhenNoOtherIsLeft() {
        Cluster cluster = cluster("round_robin", 2);

        assertThat(cluster.chooseExcluding(REQUEST, Map.of(), host -> true)).isIn(cluster.hosts());
    }

    /** {@link #cluster} with active health checking configured. */
    private static Cluster checkedCluster(int hostCount) {
        ClusterConfig c = cluster("round_robin", hostCount).config();
        HealthCheckConfig check = new HealthCheckConfig("tcp", Duration.ofSeconds(1), Duration.ofSeconds(1),
                Duration.ZERO, 2, 2, HttpHealthCheckConfig.DEFAULTS);
        return new Cluster(new ClusterConfig(c.name(), c.lbPolicy(), c.endpoints(), c.connectTimeout(),
                c.maxConnectionsPerHost(), c.maxPendingRequests(), c.idleTimeout(), c.connectionsPerHost(),
                c.heartbeatInterval(), Optional.of(check), c.outlierDetection(), c.panicThresholdPercent(),
                c.subsetLbConfig(), c.protocol(), c.circuitBreakers(), c.loadBalancing(), c.tls(), c.proxyProtocol(), c.dns()));
    }

    @Test
    void withHealthCheckingHostsTakeNoTrafficBeforeTheirFirstVerdict() {
        Cluster cluster = checkedCluster(3);
        assertThat(cluster.hosts()).allMatch(Host::pendingFirstCheck).noneMatch(Host::available);
        assertThat(cluster.choose(REQUEST)).isNull();

        Host first = cluster.hosts().get(0);
        first.healthy(true);

        // the two hosts still pending do not count towards the panic threshold: no panic
        assertThat(chosen(cluster, 20)).containsExactly(first);

        cluster.hosts().get(1).healthy(false);
        cluster.hosts().get(2).healthy(false);
        // two failed of three judged: below the 50% threshold, panic routes to every host
        assertThat(chosen(cluster, 200)).hasSize(3);
    }

    @Test
    void withHealthCheckingAHostAddedByAnUpdateWaitsForItsFirstVerdict() {
        Cluster cluster = checkedCluster(2);
        cluster.hosts().forEach(host -> host.healthy(true));

        cluster.update(List.of(new EndpointConfig("127.0.0.1", 9100, 1, Map.of())), List.of());
        Host added = cluster.hosts().stream().filter(h -> h.address().getPort() == 9100).findFirst().orElseThrow();

        assertThat(added.pendingFirstCheck()).isTrue();
        assertThat(chosen(cluster, 50)).doesNotContain(added).hasSize(2);

        added.healthy(true);
        assertThat(chosen(cluster, 50)).contains(added);
    }

    @Test
    void aClusterRebuiltByAReloadKeepsTheVerdictsOfTheHostsItKnew() {
        Cluster before = checkedCluster(2);
        before.hosts().get(0).healthy(true);
        before.hosts().get(1).healthy(false);
        List<EndpointConfig> endpoints = new ArrayList<>(before.config().endpoints());
        endpoints.add(new EndpointConfig("127.0.0.1", 9100, 1, Map.of()));

        Cluster after = new Cluster(before.config().withEndpoints(endpoints), before, Runnable::run);

        assertThat(after.hosts()).extracting(h -> h.pendingFirstCheck() + "/" + h.healthy())
                .containsExactly("false/true", "false/false", "true/false");
    }

    @Test
    void healthChangesQueuedTogetherAreRepublishedByOneRebuild() {
        List<Runnable> control = new ArrayList<>();
        Cluster cluster = new Cluster(cluster("maglev", 4).config(), null, control::add);
        Host first = cluster.hosts().get(0);
        Host second = cluster.hosts().get(1);
        HostSet before = cluster.hostSet();

        first.healthy(false);
        second.ejected(true);

        assertThat(control).hasSize(1);
        assertThat(cluster.hostSet()).isSameAs(before);
        control.forEach(Runnable::run);
        assertThat(chosen(cluster, 200)).containsExactlyInAnyOrder(cluster.hosts().get(2), cluster.hosts().get(3));
    }

    @Test
    void configListsTheEndpointsOfTheLatestReplacement() {
        Cluster cluster = cluster("round_robin", 2);
        List<EndpointConfig> reloaded = List.of(new EndpointConfig("127.0.0.1", 9001, 2, Map.of()),
                new EndpointConfig("127.0.0.1", 9005, 1, Map.of()));

        cluster.replaceEndpoints(reloaded);

        assertThat(cluster.config().endpoints()).isEqualTo(reloaded);
        assertThat(cluster.config().withEndpoints(List.of()))
                .isEqualTo(cluster("round_robin", 0).config().withEndpoints(List.of()));
    }

    @Test
    void aReplacementReusingTheAppliedEndpointObjectsKeepsTheirHostsAndAppliesTheRest() {
        Cluster cluster = cluster("round_robin", 3);
        List<EndpointConfig> applied = cluster.config().endpoints();
        Host kept = cluster.hosts().get(0);
        EndpointConfig relabelled = new EndpointConfig(applied.get(1).address(), applied.get(1).port(), 1,
                Map.of("zone", "b"));
        EndpointConfig added = new EndpointConfig("127.0.0.1", 9100, 1, Map.of());

        cluster.replaceEndpoints(List.of(applied.get(0), relabelled, added));

        assertThat(cluster.hosts()).hasSize(3).contains(kept);
        assertThat(cluster.hosts()).extracting(Host::id)
                .containsExactlyInAnyOrder(kept.id(), Host.idOf(relabelled), "127.0.0.1:9100");
        assertThat(cluster.hosts()).filteredOn(h -> h.id().equals(Host.idOf(relabelled))).singleElement()
                .satisfies(h -> assertThat(h.labels()).isEqualTo(Map.of("zone", "b")));
        assertThat(cluster.config().endpoints()).containsExactly(applied.get(0), relabelled, added);
    }

    @Test
    void stillServesAHostWhoseAddressStaysAfterAReplacementWhateverItsWeightOrLabels() {
        Cluster cluster = cluster("round_robin", 3);
        List<EndpointConfig> applied = cluster.config().endpoints();
        Host kept = cluster.hosts().get(0);
        Host relabelled = cluster.hosts().get(1);
        Host removed = cluster.hosts().get(2);

        cluster.replaceEndpoints(List.of(applied.get(0), new EndpointConfig(relabelled.address().getHostString(),
                relabelled.address().getPort(), 5, Map.of("zone", "b"))));

        assertThat(cluster.stillServes(kept)).isTrue();
        assertThat(cluster.stillServes(relabelled)).isTrue();
        assertThat(cluster.stillServes(removed)).isFalse();
        cluster.update(List.of(new EndpointConfig("127.0.0.1", 9100, 1, Map.of())), List.of());
        assertThat(cluster.stillServes(removed)).as("its index taken by another address").isFalse();
        assertThat(cluster.stillServes(new Host(applied.get(0)))).as("a host of no cluster").isFalse();
    }

    @Test
    void configListsTheHostsLeftByAnIncrementalUpdate() {
        Cluster cluster = cluster("round_robin", 3);
        EndpointConfig added = new EndpointConfig("127.0.0.1", 9100, 1, Map.of());

        cluster.update(List.of(added), List.of("127.0.0.1:9000"));

        assertThat(cluster.config().endpoints()).extracting(e -> e.address() + ":" + e.port())
                .containsExactlyInAnyOrder("127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9100");
    }

    @Test
    void configKeepsItsEndpointsWhenAHostChangesHealth() {
        Cluster cluster = cluster("round_robin", 2);
        List<EndpointConfig> before = cluster.config().endpoints();

        cluster.hosts().get(0).healthy(false);

        assertThat(cluster.config().endpoints()).isEqualTo(before);
    }

    @Test
    void aHostAddedWhereARemovedHostStillHasRequestsStartsIdle() {
        Cluster cluster = cluster("least_request", 1);
        Host removed = cluster.hosts().get(0);
        removed.requestStarted();

        cluster.update(List.of(), List.of(removed.id()));
        cluster.update(List.of(new EndpointConfig("127.0.0.1", 9100, 1, Map.of())), List.of());
        Host added = cluster.hosts().get(0);
        removed.requestFinished();
        cluster.update(List.of(new EndpointConfig("127.0.0.1", 9101, 1, Map.of())), List.of());

        assertThat(added.activeRequests()).isZero();
        assertThat(removed.activeRequests()).isZero();
        assertThat(cluster.hosts()).extracting(Host::id).containsExactly("127.0.0.1:9101", "127.0.0.1:9100");
    }

    @Test
    void leastRequestAvoidsAHostBusyWithRequestsTheClusterCounts() {
        Cluster cluster = cluster("least_request", 2);
        Host busy = cluster.hosts().get(0);
        for (int i = 0; i < 5; i++) {
            busy.requestStarted();
        }

        int busyChoices = 0;
        for (int i = 0; i < 20_000; i++) {
            busyChoices += cluster.choose(REQUEST) == busy ? 1 : 0;
        }

        assertThat(busy.activeRequests()).isEqualTo(5);
        assertThat(busyChoices / 20_000.0).isCloseTo(0.25, within(0.02));
    }
}
