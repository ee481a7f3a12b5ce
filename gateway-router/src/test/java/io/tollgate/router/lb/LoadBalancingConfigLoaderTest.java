package io.tollgate.router.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ForwardActionConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.HashPolicyConfig.Source;
import io.tollgate.core.config.HashPolicyConfig;
import io.tollgate.core.config.LoadBalancingConfig;
import io.tollgate.core.config.SlowStartConfig;
import io.tollgate.core.config.read.ConfigLoader;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LoadBalancingConfigLoaderTest {

    private static GatewayConfig parse(String cluster, String route) {
        return ConfigLoader.parse("""
                listeners:
                  - name: http
                    route_config:
                      virtual_hosts:
                        - name: vh
                          domains: ["*"]
                          routes:
                            - match: { prefix: / }
                              route: { cluster: c %s }
                clusters:
                  - name: c
                    endpoints: [{ address: 127.0.0.1, port: 9000 }]
                %s
                """.formatted(route, cluster.indent(4)));
    }

    private static LoadBalancingConfig cluster(String cluster) {
        return parse(cluster, "").clusters().get(0).loadBalancing();
    }

    private static void assertRejected(String cluster, String message) {
        assertThatThrownBy(() -> parse(cluster, "")).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    @Test
    void readsARingHashClusterWithEveryKindOfHashSource() {
        LoadBalancingConfig config = cluster("""
                lb_policy: ring_hash
                ring_hash_lb_config: { minimum_ring_size: 2048, maximum_ring_size: 65536 }
                hash_policy:
                  - header: X-User
                  - cookie: session
                  - source_ip: true
                  - rpc_header: x-param
                    terminal: true
                """);

        assertThat(config.hashPolicy()).containsExactly(new HashPolicyConfig(Source.HEADER, "x-user", false),
                new HashPolicyConfig(Source.COOKIE, "session", false),
                new HashPolicyConfig(Source.SOURCE_IP, "", false),
                new HashPolicyConfig(Source.RPC_HEADER, "x-param", true));
        assertThat(config.minimumRingSize()).isEqualTo(2048);
        assertThat(config.maximumRingSize()).isEqualTo(65536);
    }

    @Test
    void readsAMaglevTableSizeAndDefaultsTo65537() {
        assertThat(cluster("lb_policy: maglev\nmaglev_lb_config: { table_size: 5003 }").maglevTableSize()).isEqualTo(5003);
        assertThat(cluster("lb_policy: maglev").maglevTableSize()).isEqualTo(65_537);
    }

    @Test
    void readsSlowStartWithEnvoysDefaults() {
        assertThat(cluster("lb_policy: least_request\nslow_start: { window: 1m, aggression: 1.5, min_weight_percent: 20 }")
                .slowStart()).contains(new SlowStartConfig(Duration.ofMinutes(1), 1.5, 20));
        assertThat(cluster("slow_start: {}").slowStart()).contains(new SlowStartConfig(Duration.ofSeconds(30), 1.0, 10));
        assertThat(cluster("lb_policy: round_robin").slowStart()).isEmpty();
    }

    @Test
    void readsARoutesHashPolicy() {
        ForwardActionConfig forward = parse("lb_policy: maglev", ", hash_policy: [{ cookie: sid }]").listeners().get(0)
                .routeConfig().virtualHosts().get(0).routes().get(0).forward().orElseThrow();

        assertThat(forward.hashPolicy()).containsExactly(new HashPolicyConfig(Source.COOKIE, "sid", false));
    }

    @Test
    void rejectsSettingsOfAnotherPolicy() {
        assertRejected("lb_policy: round_robin\nhash_policy: [{ header: x }]",
                "clusters[0].hash_policy: only applies to lb_policy maglev or ring_hash (lb_policy is round_robin)");
        assertRejected("lb_policy: maglev\nslow_start: { window: 10s }",
                "clusters[0].slow_start: only applies to lb_policy least_request or round_robin (lb_policy is maglev)");
        assertRejected("lb_policy: maglev\nring_hash_lb_config: { minimum_ring_size: 10 }",
                "clusters[0].ring_hash_lb_config: only applies to lb_policy ring_hash (lb_policy is maglev)");
    }

    @Test
    void rejectsAMaglevTableSizeThatIsNotPrime() {
        assertRejected("lb_policy: maglev\nmaglev_lb_config: { table_size: 65536 }",
                "clusters[0].maglev_lb_config.table_size: 65536 (expected a prime, e.g. 65537 or 5000011)");
    }

    @Test
    void rejectsAMinimumRingSizeAboveTheMaximum() {
        assertRejected("lb_policy: ring_hash\nring_hash_lb_config: { minimum_ring_size: 4096, maximum_ring_size: 1024 }",
                "clusters[0].ring_hash_lb_config.minimum_ring_size: 4096 (expected: 1..1024)");
    }

    @Test
    void rejectsAHashSourceThatIsNotExactlyOneKind() {
        assertRejected("lb_policy: ring_hash\nhash_policy: [{ header: a, cookie: b }]",
                "clusters[0].hash_policy[0]: needs exactly one of header, cookie, source_ip, rpc_header (found 2)");
        assertRejected("lb_policy: ring_hash\nhash_policy: [{ source_ip: false }]",
                "clusters[0].hash_policy[0].source_ip: must be true when given");
        assertRejected("lb_policy: ring_hash\nhash_policy: [{ cookie: 'a=b' }]",
                "clusters[0].hash_policy[0].cookie: 'a=b' is not a cookie name");
    }

    @Test
    void rejectsAnAggressionThatIsNotPositive() {
        assertRejected("slow_start: { aggression: 0 }", "clusters[0].slow_start.aggression: 0.0 (expected a number > 0)");
    }

    @Test
    void keepsEveryDefaultWithoutSettings() {
        assertThat(cluster("lb_policy: random")).isEqualTo(LoadBalancingConfig.DEFAULTS);
        assertThat(cluster("lb_policy: ring_hash").hashPolicy()).isEmpty();
    }
}
