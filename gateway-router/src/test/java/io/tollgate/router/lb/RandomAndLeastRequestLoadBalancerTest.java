package io.tollgate.router.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tollgate.router.host.Host;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Distributions of the randomised balancers, within a tolerance of at least six standard
 * deviations for the number of draws, so that a correct balancer practically never fails.
 */
class RandomAndLeastRequestLoadBalancerTest {

    private static final int DRAWS = 40_000;
    private static final double TOLERANCE = 0.015;

    @Test
    void drawsRandomHostsInProportionToTheirWeights() {
        List<Host> hosts = Hosts.weighted(1, 3, 6);

        double[] shares = Hosts.shares(Hosts.counts(LoadBalancers.create("random"), hosts, DRAWS));

        assertThat(shares[0]).isCloseTo(0.1, within(TOLERANCE));
        assertThat(shares[1]).isCloseTo(0.3, within(TOLERANCE));
        assertThat(shares[2]).isCloseTo(0.6, within(TOLERANCE));
    }

    @Test
    void spreadsLeastRequestEvenlyOverIdleEqualHosts() {
        List<Host> hosts = Hosts.weighted(1, 1, 1, 1);

        double[] shares = Hosts.shares(Hosts.counts(LoadBalancers.create("least_request"), hosts, DRAWS));

        for (double share : shares) {
            assertThat(share).isCloseTo(0.25, within(TOLERANCE));
        }
    }

    @Test
    void avoidsTheBusyHostUnlessBothDrawsHitIt() {
        List<Host> hosts = Hosts.weighted(1, 1, 1, 1);
        for (int i = 0; i < 10; i++) {
            hosts.get(0).requestStarted();
        }

        double[] shares = Hosts.shares(Hosts.counts(LoadBalancers.create("least_request"), hosts, DRAWS));

        assertThat(shares[0]).isCloseTo(1.0 / 16, within(TOLERANCE));
        assertThat(shares[1]).isCloseTo(5.0 / 16, within(TOLERANCE));
    }

    @Test
    void favoursTheHeavierOfTwoIdleHostsInLeastRequest() {
        List<Host> hosts = Hosts.weighted(1, 3);

        double[] shares = Hosts.shares(Hosts.counts(LoadBalancers.create("least_request"), hosts, DRAWS));

        assertThat(shares[0]).isCloseTo(0.25, within(TOLERANCE));
    }

    @Test
    void registersEveryPolicyAndRejectsOthers() {
        assertThat(LoadBalancers.names()).containsExactlyInAnyOrder("round_robin", "random", "least_request",
                "ring_hash", "maglev");
        assertThatThrownBy(() -> LoadBalancers.create("fastest"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("lb_policy: fastest (expected one of ");
    }
}
