package io.tollgate.router.lb;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.HashPolicyConfig.Source;
import io.tollgate.core.config.HashPolicyConfig;
import io.tollgate.core.config.LoadBalancingConfig;
import io.tollgate.router.TestRequest;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.HostSet;
import io.tollgate.router.host.Host;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HashLoadBalancerTest {

    private static final int KEYS = 20_000;
    private static final LoadBalancingConfig BY_USER = LoadBalancingConfig.DEFAULTS.withHashPolicy(
            List.of(new HashPolicyConfig(Source.HEADER, "x-user", false)));

    private static TestRequest user(int i) {
        return TestRequest.of("svc", "/").header("x-user", "user-" + i);
    }

    private static List<Host> equalHosts(int count) {
        return Hosts.weighted(IntStream.generate(() -> 1).limit(count).toArray());
    }

    private static double[] shares(LoadBalancer balancer, List<Host> hosts) {
        Candidates candidates = HostSet.of(hosts).healthy();
        int[] counts = new int[hosts.size()];
        for (int i = 0; i < KEYS; i++) {
            counts[hosts.indexOf(balancer.choose(candidates, user(i)))]++;
        }
        return Hosts.shares(counts);
    }

    private static Cluster cluster(String policy, int hosts) {
        List<EndpointConfig> endpoints = new ArrayList<>();
        for (int i = 0; i < hosts; i++) {
            endpoints.add(new EndpointConfig("127.0.0.1", 1000 + i, 1, Map.of()));
        }
        return new Cluster(new ClusterConfig("c", policy, endpoints, Duration.ofSeconds(1), 1, 1, Duration.ofSeconds(1))
                .withLoadBalancing(BY_USER));
    }

    private static String[] owners(Cluster cluster) {
        String[] owners = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            owners[i] = cluster.choose(user(i)).id();
        }
        return owners;
    }

    @ParameterizedTest
    @ValueSource(strings = {"ring_hash", "maglev"})
    void spreadsKeysEvenlyOverEqualHosts(String policy) {
        double[] shares = shares(LoadBalancers.create(policy, BY_USER, System::nanoTime), equalHosts(10));

        for (double share : shares) {
            assertThat(share).isBetween(0.1 * 0.8, 0.1 * 1.2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ring_hash", "maglev"})
    void spreadsKeysInProportionToWeight(String policy) {
        double[] shares = shares(LoadBalancers.create(policy, BY_USER, System::nanoTime), Hosts.weighted(1, 2, 3, 4));

        for (int i = 0; i < shares.length; i++) {
            double expected = (i + 1) / 10.0;
            assertThat(shares[i]).isBetween(expected * 0.8, expected * 1.2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ring_hash", "maglev"})
    void sendsAKeyToTheSameHostOnEveryCallAndInEveryVersionOfTheSameHosts(String policy) {
        List<Host> hosts = equalHosts(7);
        LoadBalancer balancer = LoadBalancers.create(policy, BY_USER, System::nanoTime);
        Candidates first = HostSet.of(hosts).healthy();
        Candidates second = HostSet.of(hosts).healthy();

        for (int i = 0; i < 1000; i++) {
            Host chosen = balancer.choose(first, user(i));
            assertThat(balancer.choose(first, user(i))).isSameAs(chosen);
            assertThat(LoadBalancers.create(policy, BY_USER, System::nanoTime).choose(second, user(i))).isSameAs(chosen);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ring_hash", "maglev"})
    void removingOneOfTenHostsMovesOnlyAboutATenthOfTheKeys(String policy) {
        Cluster cluster = cluster(policy, 10);
        String[] before = owners(cluster);
        String removed = before[0];

        cluster.update(List.of(), List.of(removed));
        String[] after = owners(cluster);

        int moved = 0;
        int movedElsewhere = 0;
        for (int i = 0; i < KEYS; i++) {
            assertThat(after[i]).isNotEqualTo(removed);
            if (!after[i].equals(before[i])) {
                moved++;
                movedElsewhere += before[i].equals(removed) ? 0 : 1;
            }
        }
        assertThat((double) moved / KEYS).isBetween(0.1 * 0.8, 0.1 * 1.3);
        assertThat((double) movedElsewhere / KEYS).isLessThan(0.02);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ring_hash", "maglev"})
    void addingAHostTakesOnlyItsShareOfTheKeys(String policy) {
        Cluster cluster = cluster(policy, 9);
        String[] before = owners(cluster);

        cluster.update(List.of(new EndpointConfig("127.0.0.1", 2000, 1, Map.of())), List.of());
        String[] after = owners(cluster);

        int taken = 0;
        int movedElsewhere = 0;
        for (int i = 0; i < KEYS; i++) {
            if (after[i].equals("127.0.0.1:2000")) {
                taken++;
            } else if (!after[i].equals(before[i])) {
                movedElsewhere++;
            }
        }
        assertThat((double) taken / KEYS).isBetween(0.1 * 0.8, 0.1 * 1.2);
        assertThat((double) movedElsewhere / KEYS).isLessThan(0.02);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ring_hash", "maglev"})
    void neverChoosesAHostThatBecameUnavailableAndKeepsTheOtherKeysInPlace(String policy) {
        Cluster cluster = cluster(policy, 5);
        String[] before = owners(cluster);
        Host down = cluster.hosts().stream().filter(h -> h.id().equals(before[0])).findFirst().orElseThrow();

        down.healthy(false);
        String[] after = owners(cluster);

        int stayed = 0;
        int others = 0;
        for (int i = 0; i < KEYS; i++) {
            assertThat(after[i]).isNotEqualTo(down.id());
            if (!before[i].equals(down.id())) {
                others++;
                stayed += after[i].equals(before[i]) ? 1 : 0;
            }
        }
        assertThat((double) stayed / others).isGreaterThan(0.98);
    }

    @Test
    void ringHashInPanicWalksPastHostsThatAreDownToTheNextOnTheRing() {
        Cluster cluster = cluster("ring_hash", 5);
        List<Host> hosts = cluster.hosts();
        Host[] before = new Host[KEYS];
        for (int i = 0; i < KEYS; i++) {
            before[i] = cluster.choose(user(i));
        }

        List<Host> down = hosts.subList(0, 3);
        down.forEach(host -> host.healthy(false));

        Set<Host> takers = new HashSet<>();
        for (int i = 0; i < KEYS; i++) {
            Host now = cluster.choose(user(i));
            if (down.contains(before[i])) {
                assertThat(now).isNotIn(down);
                takers.add(now);
            } else {
                assertThat(now).isSameAs(before[i]);
            }
        }
        assertThat(takers).containsExactlyInAnyOrderElementsOf(hosts.subList(3, 5));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ring_hash", "maglev"})
    void aRoutesHashPolicyReplacesTheClusters(String policy) {
        List<Host> hosts = equalHosts(10);
        Candidates candidates = HostSet.of(hosts).healthy();
        LoadBalancer balancer = LoadBalancers.create(policy, BY_USER, System::nanoTime);
        HashPolicy byTenant = HashPolicy.of(List.of(new HashPolicyConfig(Source.HEADER, "x-tenant", false)));

        Set<Host> byRoute = new HashSet<>();
        Set<Host> byCluster = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            byRoute.add(balancer.choose(candidates, user(i).header("x-tenant", "t1"), byTenant));
            byCluster.add(balancer.choose(candidates, user(i).header("x-tenant", "t1"), null));
        }

        assertThat(byRoute).hasSize(1);
        assertThat(byCluster).hasSizeGreaterThan(5);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ring_hash", "maglev"})
    void choosesWithoutAllocating(String policy) {
        Candidates candidates = HostSet.of(equalHosts(100)).healthy();
        LoadBalancer balancer = LoadBalancers.create(policy, BY_USER, System::nanoTime);
        TestRequest[] requests = new TestRequest[64];
        for (int i = 0; i < requests.length; i++) {
            requests[i] = user(i);
        }
        balancer.prepare(candidates);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 200_000; i++) {
            balancer.choose(candidates, requests[i & 63]);
        }

        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 200_000; i++) {
            balancer.choose(candidates, requests[i & 63]);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(allocated).isLessThan(64 * 1024);
    }
}
