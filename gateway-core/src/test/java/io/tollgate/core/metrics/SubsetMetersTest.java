package io.tollgate.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class SubsetMetersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final GatewayMetrics metrics = new GatewayMetrics(registry);

    /** Counts as a cluster's subset load balancer would keep them. */
    private record Counts(long exactMatches, long keysSubsetFallbacks, long policyFallbacks, long noHost)
            implements SubsetCounts {
    }

    private double counter(String name) {
        return registry.get(name).tag(MetricNames.TAG_CLUSTER, "c").functionCounter().count();
    }

    @Test
    void publishesTheSubsetCountsOfAClusterAsCounters() {
        metrics.cluster("c").subsetCounts(new Counts(5, 3, 2, 1));

        assertThat(counter(MetricNames.UPSTREAM_LB_SUBSET_EXACT)).isEqualTo(5);
        assertThat(counter(MetricNames.UPSTREAM_LB_SUBSET_KEYS_FALLBACK)).isEqualTo(3);
        assertThat(counter(MetricNames.UPSTREAM_LB_SUBSET_POLICY_FALLBACK)).isEqualTo(2);
        assertThat(counter(MetricNames.UPSTREAM_LB_SUBSET_NO_HOST)).isEqualTo(1);
    }

    @Test
    void carriesTheOldClustersTotalsOverWhenAReloadReplacesIt() {
        metrics.cluster("c").subsetCounts(new Counts(5, 3, 2, 1));

        metrics.cluster("c").subsetCounts(new Counts(1, 0, 0, 4));

        assertThat(counter(MetricNames.UPSTREAM_LB_SUBSET_EXACT)).isEqualTo(6);
        assertThat(counter(MetricNames.UPSTREAM_LB_SUBSET_KEYS_FALLBACK)).isEqualTo(3);
        assertThat(counter(MetricNames.UPSTREAM_LB_SUBSET_POLICY_FALLBACK)).isEqualTo(2);
        assertThat(counter(MetricNames.UPSTREAM_LB_SUBSET_NO_HOST)).isEqualTo(5);
    }

    @Test
    void publishesNoSubsetCountersForAClusterWithoutSubsets() {
        metrics.cluster("c").noHealthyHost();

        assertThat(registry.find(MetricNames.UPSTREAM_LB_SUBSET_EXACT).meters()).isEmpty();
    }
}
