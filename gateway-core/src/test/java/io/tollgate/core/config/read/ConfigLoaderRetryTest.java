package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.CircuitBreakerThresholdsConfig;
import io.tollgate.core.config.CircuitBreakersConfig;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ForwardActionConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.RetryBudgetConfig;
import io.tollgate.core.config.RetryPolicyConfig.Condition;
import io.tollgate.core.config.RetryPolicyConfig;
import io.tollgate.core.config.RoutingPriority;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConfigLoaderRetryTest {

    private static GatewayConfig parse(String routeExtra, String clusterExtra) {
        return ConfigLoader.parse("""
                listeners:
                  - name: web
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - match: { prefix: / }
                              route:
                                cluster: backend
                %s
                clusters:
                  - name: backend
                %s
                    endpoints: [{ address: 127.0.0.1, port: 8080 }]
                """.formatted(routeExtra.indent(16).stripTrailing(), clusterExtra.indent(4).stripTrailing()));
    }

    private static ForwardActionConfig route(GatewayConfig config) {
        return config.listeners().get(0).routeConfig().virtualHosts().get(0).routes().get(0).forward().orElseThrow();
    }

    @Test
    void readsEveryRetryPolicyField() {
        ForwardActionConfig route = route(parse("""
                retry_policy:
                  retry_on: [connect-failure, reset, 5xx, gateway-error, retriable-status-codes, unavailable, bolt-busy,
                    bolt-timeout]
                  retriable_status_codes: [409, 429]
                  num_retries: 3
                  per_try_timeout: 2s
                  retry_back_off: { base_interval: 10ms, max_interval: 1s }
                  retry_non_idempotent: true
                per_request_buffer_limit_bytes: 1024""", ""));

        assertThat(route.retryPolicy()).hasValue(new RetryPolicyConfig(Set.of(Condition.values()), Set.of(409, 429), 3,
                Optional.of(Duration.ofSeconds(2)), Duration.ofMillis(10), Duration.ofSeconds(1), true));
        assertThat(route.perRequestBufferLimitBytes()).isEqualTo(1024);
    }

    @Test
    void rpcConditionsKeepTheirBoltNames() {
        Set<Condition> current = route(parse("retry_policy: { retry_on: [rpc-busy, rpc-timeout] }", ""))
                .retryPolicy().orElseThrow().retryOn();
        Set<Condition> older = route(parse("retry_policy: { retry_on: [bolt-busy, bolt-timeout] }", ""))
                .retryPolicy().orElseThrow().retryOn();

        assertThat(current).containsExactlyInAnyOrder(Condition.RPC_BUSY, Condition.RPC_TIMEOUT).isEqualTo(older);
    }

    @Test
    void defaultsFollowEnvoy() {
        ForwardActionConfig route = route(parse("retry_policy: { retry_on: [5xx] }", ""));

        assertThat(route.retryPolicy()).hasValue(new RetryPolicyConfig(Set.of(Condition.SERVER_ERROR), Set.of(), 1,
                Optional.empty(), Duration.ofMillis(25), Duration.ofMillis(250), false));
        assertThat(route.perRequestBufferLimitBytes()).isEqualTo(64 * 1024);
        assertThat(parse("", "").clusters().get(0).circuitBreakers()).isEqualTo(CircuitBreakersConfig.DEFAULTS);
        assertThat(route(parse("", "")).retryPolicy()).isEmpty();
    }

    @Test
    void aRouteHasTheDefaultPriorityUnlessItAsksForHigh() {
        assertThat(route(parse("", "")).priority()).isEqualTo(RoutingPriority.DEFAULT);
        assertThat(route(parse("priority: high", "")).priority()).isEqualTo(RoutingPriority.HIGH);
    }

    @Test
    void rejectsAnUnknownPriority() {
        assertThatThrownBy(() -> parse("priority: urgent", ""))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("priority: unknown priority 'urgent' (expected one of [default, high])");
    }

    @Test
    void readsThresholdsPerPriorityAndKeepsDefaultsForAPriorityNotListed() {
        ClusterConfig cluster = parse("", """
                circuit_breakers:
                  thresholds:
                    - { priority: high, max_requests: 7, max_retries: 1 }""").clusters().get(0);

        assertThat(cluster.circuitBreakers()).isEqualTo(new CircuitBreakersConfig(
                CircuitBreakerThresholdsConfig.DEFAULTS,
                new CircuitBreakerThresholdsConfig(1024, 1024, 7, 1, Optional.empty())));
    }

    @Test
    void aThresholdWithoutPriorityIsTheDefaultPriority() {
        ClusterConfig cluster = parse("", """
                circuit_breakers:
                  thresholds:
                    - { max_connections: 5 }
                    - { priority: high, max_connections: 9 }""").clusters().get(0);

        assertThat(cluster.circuitBreakers().thresholds(RoutingPriority.DEFAULT).maxConnections()).isEqualTo(5);
        assertThat(cluster.circuitBreakers().thresholds(RoutingPriority.HIGH).maxConnections()).isEqualTo(9);
    }

    @Test
    void rejectsAPriorityListedTwice() {
        assertThatThrownBy(() -> parse("", """
                circuit_breakers:
                  thresholds: [{ priority: high }, { priority: high }]"""))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("circuit_breakers.thresholds[1]")
                .hasMessageContaining("priority 'high' is already used");
    }

    @Test
    void rejectsThresholdsBesideTheShortForm() {
        assertThatThrownBy(() -> parse("", "circuit_breakers: { max_requests: 3, thresholds: [] }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("max_requests");
    }

    @Test
    void readsCircuitBreakersWithARetryBudget() {
        ClusterConfig cluster = parse("", """
                circuit_breakers:
                  max_connections: 10
                  max_pending_requests: 0
                  max_requests: 20
                  max_retries: 2
                  retry_budget: { budget_percent: 25 }""").clusters().get(0);

        assertThat(cluster.circuitBreakers()).as("the short form sets the default priority")
                .isEqualTo(new CircuitBreakersConfig(new CircuitBreakerThresholdsConfig(10, 0, 20, 2,
                        Optional.of(new RetryBudgetConfig(25, 3))), CircuitBreakerThresholdsConfig.DEFAULTS));
    }

    @Test
    void rejectsAnUnknownRetryCondition() {
        assertThatThrownBy(() -> parse("retry_policy: { retry_on: [5xx, sometimes] }", ""))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("retry_policy.retry_on[1]")
                .hasMessageContaining("unknown condition 'sometimes'");
    }

    @Test
    void rejectsRetriableStatusCodesWithoutCodes() {
        assertThatThrownBy(() -> parse("retry_policy: { retry_on: [retriable-status-codes] }", ""))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("retriable_status_codes: must list at least one status");
    }

    @Test
    void rejectsAMaxIntervalBelowTheBaseInterval() {
        assertThatThrownBy(() -> parse("retry_policy: { retry_on: [5xx], retry_back_off: "
                + "{ base_interval: 100ms, max_interval: 50ms } }", ""))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("retry_back_off.max_interval: 50 ms (expected at least base_interval, 100 ms)");
    }

    @Test
    void rejectsABudgetOver100Percent() {
        assertThatThrownBy(() -> parse("", "circuit_breakers: { retry_budget: { budget_percent: 150 } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("circuit_breakers.retry_budget.budget_percent");
    }
}
