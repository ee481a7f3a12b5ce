package io.tollgate.router.lb;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.router.cluster.HostSet;
import io.tollgate.router.host.Host;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RoundRobinLoadBalancerTest {

    private final LoadBalancer balancer = LoadBalancers.create("round_robin");

    @Test
    void visitsEqualHostsInTurn() {
        List<Host> hosts = Hosts.weighted(1, 1, 1);

        List<Host> chosen = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            chosen.add(balancer.choose(HostSet.of(hosts).healthy(), null));
        }

        assertThat(chosen).containsExactly(hosts.get(0), hosts.get(1), hosts.get(2),
                hosts.get(0), hosts.get(1), hosts.get(2));
    }

    @Test
    void givesEachHostExactlyItsWeightInEveryCycle() {
        List<Host> hosts = Hosts.weighted(1, 2, 3, 7);

        for (int cycle = 0; cycle < 5; cycle++) {
            assertThat(Hosts.counts(balancer, hosts, 13)).containsExactly(1, 2, 3, 7);
        }
    }

    @Test
    void spreadsAHeavyHostsTurnsThroughTheCycle() {
        List<Host> hosts = Hosts.weighted(4, 6);

        int longestRun = 0;
        int run = 0;
        Host previous = null;
        int[] counts = new int[2];
        for (int i = 0; i < 10; i++) {
            Host host = balancer.choose(HostSet.of(hosts).healthy(), null);
            counts[hosts.indexOf(host)]++;
            run = host == previous ? run + 1 : 1;
            longestRun = Math.max(longestRun, run);
            previous = host;
        }

        assertThat(counts).containsExactly(4, 6);
        assertThat(longestRun).isLessThanOrEqualTo(2);
    }

    @Test
    void alwaysChoosesASingleHost() {
        List<Host> hosts = Hosts.weighted(5);

        assertThat(Hosts.counts(balancer, hosts, 10)).containsExactly(10);
    }

    @Test
    void givesEachThreadAWholeRoundRobinOfItsOwn() throws Exception {
        List<Host> hosts = Hosts.weighted(1, 1);
        Candidates candidates = HostSet.of(hosts).healthy();
        ExecutorService first = Executors.newSingleThreadExecutor();
        ExecutorService second = Executors.newSingleThreadExecutor();
        try {
            List<Host> firstChoices = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                firstChoices.add(first.submit(() -> balancer.choose(candidates, null)).get(10, TimeUnit.SECONDS));
                second.submit(() -> balancer.choose(candidates, null)).get(10, TimeUnit.SECONDS);
            }

            assertThat(firstChoices).containsExactly(hosts.get(0), hosts.get(1), hosts.get(0), hosts.get(1));
        } finally {
            first.shutdownNow();
            second.shutdownNow();
        }
    }
}
