package io.tollgate.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tollgate.core.config.RetryPolicyConfig.Condition;
import io.tollgate.core.config.read.ConfigLoader;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Records check their own cross-field rules whoever builds them, naming the field as the
 * configuration file spells it; the loader reports such a check at the field's whole path.
 */
class RecordChecksTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    @Test
    void outlierDetectionRefusesAMaximumEjectionShorterThanTheBaseAndTakesAnEqualOne() {
        InvalidFieldException e = refused(() -> outlier(Duration.ofSeconds(30), Duration.ofSeconds(10)));

        assertThat(e.field()).isEqualTo("max_ejection_time");
        assertThat(e.getMessage())
                .isEqualTo("max_ejection_time: 10000 ms (expected at least base_ejection_time, 30000 ms)");
        assertThat(outlier(Duration.ofSeconds(30), Duration.ofSeconds(30)).maxEjectionTime())
                .isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void retryPolicyNeedsStatusesForRetriableStatusCodesAndABackOffThatDoesNotShrink() {
        assertThat(refused(() -> retry(Set.of(Condition.RETRIABLE_STATUS_CODES), Set.of(), SECOND, SECOND)).field())
                .isEqualTo("retriable_status_codes");
        InvalidFieldException backOff = refused(() -> retry(Set.of(), Set.of(), SECOND, Duration.ofMillis(100)));
        assertThat(backOff.field()).isEqualTo("retry_back_off.max_interval");
        assertThat(backOff.problem()).isEqualTo("100 ms (expected at least base_interval, 1000 ms)");

        assertThat(retry(Set.of(Condition.RETRIABLE_STATUS_CODES), Set.of(503), SECOND, SECOND).retriableStatusCodes())
                .containsExactly(503);
    }

    @Test
    void redirectChecksItsStatusPathsAndScheme() {
        assertThat(refused(() -> redirect(Optional.empty(), Optional.of("/a"), Optional.empty(), 200)).problem())
                .isEqualTo("200 (expected one of [301, 302, 303, 307, 308])");
        assertThat(refused(() -> redirect(Optional.empty(), Optional.of("/a"), Optional.of("/b"), 301)).field())
                .isEmpty();
        assertThat(refused(() -> redirect(Optional.empty(), Optional.empty(), Optional.of("b"), 301)).getMessage())
                .isEqualTo("prefix_rewrite: must start with '/' (was 'b')");
        assertThat(refused(() -> redirect(Optional.of("ftp"), Optional.empty(), Optional.empty(), 301)).field())
                .isEqualTo("scheme");

        assertThat(redirect(Optional.of("https"), Optional.empty(), Optional.of("/b/"), 308).responseCode())
                .isEqualTo(308);
    }

    @Test
    void valueMatcherNeedsExactlyOneKindAndAValidRegex() {
        assertThat(refused(() -> new ValueMatcherConfig("x", Optional.of("a"), Optional.empty(), true, false))
                .getMessage()).isEqualTo("needs exactly one of exact, regex, present: true (found 2)");
        assertThat(refused(() -> new ValueMatcherConfig("x", Optional.empty(), Optional.of("(a"), false, false))
                .field()).isEqualTo("regex");

        assertThat(new ValueMatcherConfig("x", Optional.empty(), Optional.of("a+"), false, true).regex())
                .contains("a+");
    }

    @Test
    void routeConfigServesEachDomainOnceAcrossItsVirtualHosts() {
        InvalidFieldException e = refused(() -> new RouteConfig(List.of(host("a", "x.example", "y.example"),
                host("b", "z.example", "y.example"))));

        assertThat(e.field()).isEqualTo("virtual_hosts[1].domains[1]");
        assertThat(e.problem()).isEqualTo("domain 'y.example' is already served by virtual_hosts[0] (expected each"
                + " domain once)");
        assertThat(new RouteConfig(List.of(host("a", "x.example"), host("b", "y.example"))).virtualHosts()).hasSize(2);
    }

    @Test
    void theLoaderReportsARecordsOwnCheckAtTheFieldsPathInFileOrder() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("""
                listeners:
                  - name: l
                    route_config:
                      virtual_hosts:
                        - { name: a, domains: [x.example], routes: [] }
                        - { name: b, domains: [x.example], routes: [] }
                clusters:
                  - name: c
                    endpoints: []
                    outlier_detection: { base_ejection_time: 30s, max_ejection_time: 10s }
                """));

        assertThat(e.errors()).containsExactly(
                "listeners[0].route_config.virtual_hosts[1].domains[0]: domain 'x.example' is already served by"
                        + " virtual_hosts[0] (expected each domain once)",
                "clusters[0].outlier_detection.max_ejection_time: 10000 ms (expected at least base_ejection_time,"
                        + " 30000 ms)");
    }

    private static InvalidFieldException refused(Runnable build) {
        InvalidFieldException e = catchThrowableOfType(InvalidFieldException.class, build::run);
        assertThat(e).as("the record refuses its fields").isNotNull();
        return e;
    }

    private static OutlierDetectionConfig outlier(Duration base, Duration max) {
        return new OutlierDetectionConfig(5, 0, 0, Duration.ofSeconds(10), base, max, 10);
    }

    private static RetryPolicyConfig retry(Set<Condition> on, Set<Integer> codes, Duration base, Duration max) {
        return new RetryPolicyConfig(on, codes, 1, Optional.empty(), base, max, false);
    }

    private static RedirectConfig redirect(Optional<String> scheme, Optional<String> path,
            Optional<String> prefixRewrite, int code) {
        return new RedirectConfig(scheme, Optional.empty(), Optional.empty(), path, prefixRewrite, code, false);
    }

    private static VirtualHostConfig host(String name, String... domains) {
        return new VirtualHostConfig(name, List.of(domains), List.of());
    }
}
