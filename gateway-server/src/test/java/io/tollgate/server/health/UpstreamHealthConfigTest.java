package io.tollgate.server.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.core.config.HttpHealthCheckConfig;
import io.tollgate.core.config.OutlierDetectionConfig;
import io.tollgate.core.config.read.ConfigLoader;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Parsing of {@code health_check}, {@code outlier_detection} and {@code panic_threshold_percent}. */
class UpstreamHealthConfigTest {

    private static ClusterConfig cluster(String fields) {
        return ConfigLoader.parse("""
                clusters:
                  - { name: c, endpoints: [{ address: 127.0.0.1, port: 9000 }], %s }
                """.formatted(fields)).clusters().get(0);
    }

    private static void assertRejected(String fields, String message) {
        assertThatThrownBy(() -> cluster(fields)).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    @Test
    void aClusterWithoutThemHasNoChecksAndTheDefaultPanicThreshold() {
        ClusterConfig cluster = cluster("lb_policy: random");

        assertThat(cluster.healthCheck()).isEmpty();
        assertThat(cluster.outlierDetection()).isEmpty();
        assertThat(cluster.panicThresholdPercent()).isEqualTo(50);
    }

    @Test
    void readsEveryHealthCheckField() {
        ClusterConfig cluster = cluster("""
                health_check: { type: http, interval: 5s, timeout: 250ms, jitter: 1s, healthy_threshold: 4,
                  unhealthy_threshold: 6, http: { path: /healthz, expected_statuses: [204, "300-302"] } },
                panic_threshold_percent: 0""");

        assertThat(cluster.healthCheck()).contains(new HealthCheckConfig("http", Duration.ofSeconds(5),
                Duration.ofMillis(250), Duration.ofSeconds(1), 4, 6, new HttpHealthCheckConfig("/healthz",
                        List.of(new HttpHealthCheckConfig.StatusRange(204, 204), new HttpHealthCheckConfig.StatusRange(300, 302)))));
        assertThat(cluster.panicThresholdPercent()).isZero();
        HttpHealthCheckConfig http = cluster.healthCheck().orElseThrow().http();
        assertThat(http.expects(204)).isTrue();
        assertThat(http.expects(301)).isTrue();
        assertThat(http.expects(200)).isFalse();
    }

    @Test
    void healthCheckDefaultsProbeSlashAndAccept2xxAnd3xx() {
        HealthCheckConfig check = cluster("health_check: { type: tcp }").healthCheck().orElseThrow();

        assertThat(check).isEqualTo(new HealthCheckConfig("tcp", Duration.ofSeconds(10), Duration.ofSeconds(1),
                Duration.ZERO, 2, 3, HttpHealthCheckConfig.DEFAULTS));
        assertThat(check.http().expects(399)).isTrue();
        assertThat(check.http().expects(400)).isFalse();
    }

    @Test
    void readsEveryOutlierDetectionField() {
        ClusterConfig cluster = cluster("""
                outlier_detection: { consecutive_5xx: 7, consecutive_gateway_failure: 3, consecutive_connect_failure: 2,
                  interval: 1s, base_ejection_time: 10s, max_ejection_time: 1m, max_ejection_percent: 40 }""");

        assertThat(cluster.outlierDetection()).contains(new OutlierDetectionConfig(7, 3, 2, Duration.ofSeconds(1),
                Duration.ofSeconds(10), Duration.ofMinutes(1), 40));
        assertThat(cluster("outlier_detection: {}").outlierDetection()).isEqualTo(Optional.of(new OutlierDetectionConfig(
                5, 0, 0, Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(300), 10)));
    }

    @Test
    void rejectsAnUnknownCheckType() {
        assertRejected("health_check: { type: udp }",
                "clusters[0].health_check.type: unknown type 'udp' (expected one of [bolt, dubbo, http, tcp])");
    }

    @Test
    void rejectsHttpSettingsOnAnotherType() {
        assertRejected("health_check: { type: tcp, http: { path: / } }",
                "clusters[0].health_check.http: only applies to type http (type is tcp)");
    }

    @Test
    void rejectsAStatusRangeOutOfOrderOrOutOfBounds() {
        assertRejected("health_check: { type: http, http: { expected_statuses: [\"399-200\"] } }",
                "clusters[0].health_check.http.expected_statuses[0]: '399-200' is not a status or range"
                        + " (expected e.g. 200 or 200-399, within 100-599)");
        assertRejected("health_check: { type: http, http: { expected_statuses: [200, 600] } }",
                "clusters[0].health_check.http.expected_statuses[1]: '600' is not a status or range"
                        + " (expected e.g. 200 or 200-399, within 100-599)");
    }

    @Test
    void rejectsAZeroThresholdAndAMaxEjectionTimeBelowTheBase() {
        assertRejected("health_check: { type: tcp, healthy_threshold: 0 }",
                "clusters[0].health_check.healthy_threshold: 0 (expected: 1..1000)");
        assertRejected("outlier_detection: { base_ejection_time: 1m, max_ejection_time: 30s }",
                "clusters[0].outlier_detection.max_ejection_time: 30000 ms (expected at least base_ejection_time, 60000 ms)");
    }

    @Test
    void rejectsAPanicThresholdOver100() {
        assertRejected("panic_threshold_percent: 101", "clusters[0].panic_threshold_percent: 101 (expected: 0..100)");
    }
}
