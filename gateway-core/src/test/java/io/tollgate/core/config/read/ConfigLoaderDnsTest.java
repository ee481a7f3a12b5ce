package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.DnsConfig;
import io.tollgate.core.config.EndpointConfig;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A cluster's {@code type} and DNS settings, read as Envoy's cluster fields of the same names. */
class ConfigLoaderDnsTest {

    private static ClusterConfig cluster(String extra, String endpoints) {
        return ConfigLoader.parse("""
                listeners:
                  - name: web
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes: [{ match: { prefix: / }, route: { cluster: api } }]
                clusters:
                  - name: api
                %s
                    endpoints: %s
                """.formatted(extra.indent(4), endpoints)).cluster("api").orElseThrow();
    }

    private static ClusterConfig cluster(String extra) {
        return cluster(extra, "[{ address: api.example.com, port: 443 }]");
    }

    @Test
    void staticIsTheDefault() {
        assertThat(cluster("").dns()).isEmpty();
        assertThat(cluster("type: static").dns()).isEmpty();
    }

    @Test
    void readsEveryDnsSetting() {
        DnsConfig dns = cluster("""
                type: strict_dns
                dns_refresh_rate: 30s
                respect_dns_ttl: true
                dns_min_refresh_rate: 2s
                dns_lookup_family: v4_preferred
                dns_resolvers: [ "10.0.0.53", "10.0.0.54:5353", "[::1]:53", "fd00::1" ]
                dns_failure_refresh_rate: { base_interval: 500ms, max_interval: 20s }
                dns_query_timeout: 2s
                """).dns().orElseThrow();

        assertThat(dns).isEqualTo(new DnsConfig(DnsConfig.Type.STRICT, Duration.ofSeconds(30), true,
                Duration.ofSeconds(2), DnsConfig.LookupFamily.V4_PREFERRED, dns.resolvers(), Duration.ofMillis(500),
                Duration.ofSeconds(20), Duration.ofSeconds(2)));
        assertThat(dns.resolvers()).extracting(InetSocketAddress::getPort).containsExactly(53, 5353, 53, 53);
        assertThat(dns.resolvers()).extracting(a -> a.getAddress().getHostAddress())
                .containsExactly("10.0.0.53", "10.0.0.54", "0:0:0:0:0:0:0:1", "fd00:0:0:0:0:0:0:1");
    }

    @Test
    void defaultsAreEnvoys() {
        DnsConfig dns = cluster("type: logical_dns").dns().orElseThrow();

        assertThat(dns).isEqualTo(DnsConfig.defaults(DnsConfig.Type.LOGICAL));
        assertThat(dns.refreshRate()).isEqualTo(Duration.ofSeconds(5));
        assertThat(dns.lookupFamily()).isEqualTo(DnsConfig.LookupFamily.AUTO);
        assertThat(dns.resolvers()).isEmpty();
        // a failure is retried after a second, doubling up to the refresh rate
        assertThat(dns.failureBaseInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(dns.failureMaxInterval()).isEqualTo(Duration.ofSeconds(5));
        DnsConfig fast = cluster("type: strict_dns\ndns_refresh_rate: 200ms").dns().orElseThrow();
        assertThat(fast.failureBaseInterval()).isEqualTo(Duration.ofMillis(200));
        assertThat(fast.failureMaxInterval()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void keepsTheEndpointsAsDeclared() {
        ClusterConfig config = cluster("type: strict_dns",
                "[{ address: a.example.com, port: 80, weight: 3, labels: { zone: a } }, { address: b.example.com, port: 80 }]");

        assertThat(config.endpoints()).containsExactly(
                new EndpointConfig("a.example.com", 80, 3, java.util.Map.of("zone", "a")),
                new EndpointConfig("b.example.com", 80, 1, java.util.Map.of()));
        assertThat(config.dns()).isPresent();
    }

    @Test
    void rejectsWhatADnsClusterCannotBe() {
        assertThatThrownBy(() -> cluster("type: dns"))
                .hasMessageContaining("clusters[0].type: unknown type 'dns' (expected one of [static, strict_dns, logical_dns, original_dst])");
        assertThatThrownBy(() -> cluster("dns_refresh_rate: 1s"))
                .hasMessageContaining("clusters[0].dns_refresh_rate: only applies to type strict_dns or logical_dns (type is static)");
        assertThatThrownBy(() -> cluster("type: logical_dns",
                "[{ address: a.example.com, port: 80 }, { address: b.example.com, port: 80 }]"))
                .hasMessageContaining("clusters[0].endpoints: a logical_dns cluster has exactly one endpoint (found 2)");
        assertThatThrownBy(() -> cluster("type: strict_dns", "[]"))
                .hasMessageContaining("clusters[0].endpoints: a strict_dns cluster needs at least one endpoint to resolve");
        assertThatThrownBy(() -> cluster("type: strict_dns\ndns_lookup_family: v5"))
                .hasMessageContaining("clusters[0].dns_lookup_family: unknown family 'v5'");
        assertThatThrownBy(() -> cluster("type: strict_dns\ndns_resolvers: [ ns.example.com ]"))
                .hasMessageContaining("clusters[0].dns_resolvers[0]: 'ns.example.com' is not an IP address");
        assertThatThrownBy(() -> cluster("type: strict_dns\ndns_resolvers: [ \"10.0.0.1:70000\" ]"))
                .hasMessageContaining("clusters[0].dns_resolvers[0]: '10.0.0.1:70000' has no valid port");
        assertThatThrownBy(() -> cluster("type: strict_dns\ndns_refresh_rate: 0ms"))
                .hasMessageContaining("clusters[0].dns_refresh_rate: must be positive");
        assertThatThrownBy(() -> cluster("type: strict_dns\ndns_failure_refresh_rate: { base_interval: 2s, max_interval: 1s }"))
                .hasMessageContaining("clusters[0].dns_failure_refresh_rate.max_interval: must be at least base_interval");
    }

    @Test
    void reloadsCompareDnsSettingsAsSettings() {
        ClusterConfig strict = cluster("type: strict_dns");
        assertThat(strict.withEndpoints(List.of())).isNotEqualTo(cluster("type: logical_dns").withEndpoints(List.of()));
        assertThat(strict.withEndpoints(List.of()).dns()).isEqualTo(strict.dns());
        assertThat(cluster("").withEndpoints(List.of()).dns()).isEqualTo(Optional.empty());
    }
}
