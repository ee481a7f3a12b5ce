package io.tollgate.router.retry;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tollgate.core.config.CircuitBreakerThresholdsConfig;
import io.tollgate.core.config.RetryPolicyConfig;
import io.tollgate.core.config.RetryPolicyConfig.Condition;
import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.router.breaker.CircuitBreakers;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private static RetryPolicy policy(Set<Condition> retryOn, Set<Integer> codes, boolean nonIdempotent) {
        return new RetryPolicy(new RetryPolicyConfig(retryOn, codes, 3, Optional.empty(), Duration.ofMillis(10),
                Duration.ofMillis(50), nonIdempotent));
    }

    @Test
    void backoffIsAFullJitterDrawBelowACapThatDoublesUpToTheMaximum() {
        RetryPolicy policy = policy(Set.of(Condition.SERVER_ERROR), Set.of(), false);
        SplittableRandom random = new SplittableRandom(42);
        long[] caps = {10, 20, 40, 50, 50};

        for (int retry = 1; retry <= caps.length; retry++) {
            long max = 0;
            long min = Long.MAX_VALUE;
            for (int i = 0; i < 2000; i++) {
                long delay = policy.backoffNanos(retry, random);
                max = Math.max(max, delay);
                min = Math.min(min, delay);
            }
            long cap = Duration.ofMillis(caps[retry - 1]).toNanos();
            assertThat(max).as("retry %d", retry).isLessThan(cap).isGreaterThan(cap * 9 / 10);
            assertThat(min).as("retry %d", retry).isLessThan(cap / 10);
        }
    }

    @Test
    void theSameSeedGivesTheSameBackoffs() {
        RetryPolicy policy = policy(Set.of(Condition.SERVER_ERROR), Set.of(), false);

        assertThat(policy.backoffNanos(2, new SplittableRandom(7))).isEqualTo(policy.backoffNanos(2, new SplittableRandom(7)));
    }

    @Test
    void statusConditionsCoverWhatEnvoysCover() {
        assertThat(policy(Set.of(Condition.SERVER_ERROR), Set.of(), false).retriesStatus(500)).isTrue();
        assertThat(policy(Set.of(Condition.GATEWAY_ERROR), Set.of(), false).retriesStatus(500)).isFalse();
        assertThat(policy(Set.of(Condition.GATEWAY_ERROR), Set.of(), false).retriesStatus(503)).isTrue();
        assertThat(policy(Set.of(Condition.RETRIABLE_STATUS_CODES), Set.of(409), false).retriesStatus(409)).isTrue();
        assertThat(policy(Set.of(Condition.RETRIABLE_STATUS_CODES), Set.of(409), false).retriesStatus(503)).isFalse();
        assertThat(policy(Set.of(Condition.CONNECT_FAILURE), Set.of(), false).retriesReset()).isFalse();
        assertThat(policy(Set.of(Condition.SERVER_ERROR), Set.of(), false).retriesConnectFailure()).isTrue();
        assertThat(policy(Set.of(Condition.UNAVAILABLE), Set.of(), false).retriesGrpcStatus(14)).isTrue();
        assertThat(policy(Set.of(Condition.UNAVAILABLE), Set.of(), false).retriesGrpcStatus(13)).isFalse();
        assertThat(policy(Set.of(), Set.of(), false).retriesStatus(503)).isFalse();
    }

    @Test
    void grantsRetriesWhileThePolicyHasSomeLeftAndTheBreakersHaveRoom() {
        RetryPolicy policy = policy(Set.of(Condition.RESET), Set.of(), false);
        CircuitBreakers breakers = new CircuitBreakers(new CircuitBreakerThresholdsConfig(1024, 1024, 1024, 1,
                Optional.empty()));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ClusterMetrics metrics = new GatewayMetrics(registry).cluster("c");

        assertThat(policy.grant(0, breakers, metrics)).isTrue();
        assertThat(policy.grant(1, breakers, metrics)).as("max_retries 1 is in use").isFalse();
        breakers.retryFinished();
        assertThat(policy.grant(3, breakers, metrics)).as("num_retries 3 are used up").isFalse();
        assertThat(breakers.retries()).isZero();
        assertThat(registry.counter(MetricNames.UPSTREAM_RQ_RETRY_OVERFLOW, "cluster", "c").count()).isEqualTo(1);
        assertThat(registry.counter(MetricNames.UPSTREAM_RQ_RETRY_LIMIT_EXCEEDED, "cluster", "c").count())
                .isEqualTo(1);
    }

    @Test
    void boltConditionsAreNamedOnlyByThemselves() {
        assertThat(policy(Set.of(Condition.RPC_BUSY), Set.of(), false).retriesBusy()).isTrue();
        assertThat(policy(Set.of(Condition.RPC_TIMEOUT), Set.of(), false).retriesRpcTimeout()).isTrue();
        assertThat(policy(Set.of(Condition.RPC_BUSY), Set.of(), false).retriesRpcTimeout()).isFalse();
        assertThat(policy(Set.of(Condition.SERVER_ERROR), Set.of(), false).retriesBusy()).isFalse();
        assertThat(policy(Set.of(Condition.GATEWAY_ERROR), Set.of(), false).retriesRpcTimeout()).isFalse();
        assertThat(policy(Set.of(Condition.RPC_BUSY, Condition.RPC_TIMEOUT), Set.of(), false).retriesReset())
                .isFalse();
    }

    @Test
    void onlyIdempotentMethodsAreRetriedUnlessConfiguredOrGrpc() {
        RetryPolicy strict = policy(Set.of(Condition.SERVER_ERROR), Set.of(), false);

        assertThat(strict.allowsMethod("GET", false)).isTrue();
        assertThat(strict.allowsMethod("PUT", false)).isTrue();
        assertThat(strict.allowsMethod("POST", false)).isFalse();
        assertThat(strict.allowsMethod("PATCH", false)).isFalse();
        assertThat(strict.allowsMethod("POST", true)).isTrue();
        assertThat(policy(Set.of(Condition.SERVER_ERROR), Set.of(), true).allowsMethod("POST", false)).isTrue();
    }
}
