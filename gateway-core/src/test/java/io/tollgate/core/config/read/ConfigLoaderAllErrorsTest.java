package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.extension.ExtensionRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A configuration with several mistakes is refused once, with every mistake and its path, in file order. */
class ConfigLoaderAllErrorsTest {

    private static final String DURATION = " is not a duration (expected an integer of at most 9 digits and a unit"
            + " ms, s, m or h, e.g. 250ms, 15s, 2m, 1h)";
    private static final String ROUTES = "listeners[0].route_config.virtual_hosts[0].routes";

    @Test
    void aFileWithMistakesInEverySectionListsThemAllInFileOrder() throws IOException {
        ConfigException e = refused(resource("ten-errors.yaml"));

        assertThat(e.errors()).containsExactly(
                "admin.port: 99999 (expected: 0..65535)",
                "listeners[0].max_connections: -1 (expected: 0..2147483647)",
                "listeners[0].http.idle_timeout: '5'" + DURATION,
                ROUTES + "[0].match.prefix: must start with '/' (was 'api')",
                ROUTES + "[1].route.cluster: unknown cluster 'nowhere'",
                ROUTES + "[1].route.timeout: must be positive",
                "listeners[1].protocols[0]: unknown protocol 'bolt2' (expected one of [bolt, dubbo, h2c, http1])",
                "clusters[0].lb_policy: unknown policy 'fastest' (expected one of [least_request, maglev, random,"
                        + " ring_hash, round_robin])",
                "clusters[1].endpoints[0].port: 0 (expected: 1..65535)",
                "clusters[2]: name 'backend' is already used by clusters[0] (expected each name once)",
                "clusters[2].conect_timeout: unknown field (expected one of [circuit_breakers, connect_timeout,"
                        + " connections_per_host, discovery, dns_failure_refresh_rate, dns_lookup_family,"
                        + " dns_min_refresh_rate, dns_query_timeout, dns_refresh_rate, dns_resolvers, endpoints,"
                        + " health_check, heartbeat_interval, idle_timeout, lb_policy, max_connections_per_host,"
                        + " max_pending_requests, name, original_dst, outlier_detection, panic_threshold_percent, protocol,"
                        + " proxy_protocol, respect_dns_ttl, subset_lb_config, tls, type])",
                "overload.heap_threshold: 2.0 (expected: > 0 and <= 1)",
                "drain.timeout: 'soon'" + DURATION);
        assertThat(e.getMessage()).isEqualTo(String.join("\n", e.errors()));
    }

    @Test
    void errorsFollowTheDocumentNotTheOrderSectionsAreRead() {
        ConfigException e = refused("""
                drain: { timeout: soon }
                clusters: [ { name: a, connect_timeout: x, endpoints: [] } ]
                listeners: [ { name: l, port: -5, route_config: { virtual_hosts: [] } } ]
                """);

        assertThat(e.errors()).containsExactly(
                "drain.timeout: 'soon'" + DURATION,
                "clusters[0].connect_timeout: 'x'" + DURATION,
                "listeners[0].port: -5 (expected: 0..65535)");
    }

    @Test
    void eachUnknownKeyOfOneMappingIsNamedAndTheOneMistakeIsNotRepeatedAsItsConsequence() {
        ConfigException e = refused("""
                listeners:
                  - name: l
                    route_config:
                      virtual_hosts:
                        - { name: v, domains: ["*"], routes: [ { match: { prefx: /, headrs: [] }, route: { cluster: a } } ] }
                clusters: [ { name: a, endpoints: [ { address: 127.0.0.1, port: 1, wieght: 2 } ] } ]
                """);

        String known = " unknown field (expected one of [headers, path, prefix, query_parameters, regex])";
        assertThat(e.errors()).containsExactly(
                ROUTES + "[0].match.prefx:" + known,
                ROUTES + "[0].match.headrs:" + known,
                "clusters[0].endpoints[0].wieght: unknown field (expected one of [address, labels, port, weight])");
    }

    @Test
    void aClusterThatHasErrorsOfItsOwnIsStillKnownToTheRoutesNamingIt() {
        ConfigException e = refused("""
                listeners:
                  - name: l
                    route_config:
                      virtual_hosts: [ { name: v, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: a } } ] } ]
                clusters: [ { name: a, lb_policy: fastest, endpoints: [] } ]
                """);

        assertThat(e.errors()).containsExactly("clusters[0].lb_policy: unknown policy 'fastest' (expected one of"
                + " [least_request, maglev, random, ring_hash, round_robin])");
    }

    @Test
    void oneMistakeKeepsTheMessageItAlwaysHad() {
        ConfigException e = refused("listeners: [ { name: l, port: -5, route_config: { virtual_hosts: [] } } ]");

        assertThat(e.getMessage()).isEqualTo("listeners[0].port: -5 (expected: 0..65535)");
        assertThat(e.errors()).containsExactly(e.getMessage());
    }

    @Test
    void aResourceFromTheControlPlaneIsRefusedWithAllItsErrorsToo() throws IOException {
        var tree = new ObjectMapper(new YAMLFactory()).readTree("""
                { name: c, connect_timeout: soon, max_pending_requests: -1, endpoints: [] }
                """);

        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.cluster(tree, "", ExtensionRegistry.defaults()));

        assertThat(e.errors()).containsExactly(
                "connect_timeout: 'soon'" + DURATION,
                "max_pending_requests: -1 (expected: 0..1000000)");
    }

    private static ConfigException refused(String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(yaml));
        assertThat(e).as("the configuration is refused").isNotNull();
        return e;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ConfigLoaderAllErrorsTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
