package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.core.config.RegistryConfig;
import io.tollgate.core.config.ServiceTemplateConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code registries:} and a cluster's {@code discovery:}, read and checked. */
class DiscoveryConfigLoaderTest {

    private static final String REGISTRY = """
            registries:
              - name: zk
                type: zookeeper
                ensemble: "10.0.0.1:2181,10.0.0.2:2181"
                root: /prod
                session_timeout: 30s
                connection_timeout: 3s
                auth: { username: gateway, password: secret }
            """;

    private static GatewayConfig parse(String clusters) {
        return ConfigLoader.parse(REGISTRY + "clusters:\n" + clusters);
    }

    @Test
    void readsRegistriesAndEachKindOfDiscoveredCluster() {
        GatewayConfig config = parse("""
                  - name: orders
                    discovery: { registry: zk, dubbo: { interface: com.example.Orders, group: gray, version: "2.0" } }
                  - name: users
                    discovery: { registry: zk, sofa: { interface: com.example.Users, unique_id: blue } }
                  - name: every
                    discovery: { registry: zk, per_service: dubbo, unused_timeout: 5m }
                  - name: plain
                    endpoints: [{ address: 127.0.0.1, port: 8080 }]
                """);

        RegistryConfig zk = config.discovery().registry("zk").orElseThrow();
        assertThat(zk).isEqualTo(new RegistryConfig("zk", "zookeeper", "10.0.0.1:2181,10.0.0.2:2181", "/prod",
                Duration.ofSeconds(30), Duration.ofSeconds(3),
                Optional.of(new RegistryConfig.DigestAuth("gateway", "secret"))));
        assertThat(zk.toString()).doesNotContain("secret");
        assertThat(config.discovery().clusters()).containsOnlyKeys("orders", "users");
        assertThat(config.discovery().clusters().get("orders")).isEqualTo(new ProviderQueryConfig("zk",
                ProviderQueryConfig.Kind.DUBBO, "com.example.Orders", "gray", "2.0", "", List.of("dubbo")));
        assertThat(config.discovery().clusters().get("users")).isEqualTo(new ProviderQueryConfig("zk",
                ProviderQueryConfig.Kind.SOFA, "com.example.Users", "", "1.0", "blue", List.of("bolt")));
        assertThat(config.discovery().templates()).containsOnlyKeys("every");
        assertThat(config.discovery().templates().get("every")).isEqualTo(new ServiceTemplateConfig("zk",
                ProviderQueryConfig.Kind.DUBBO, Duration.ofMinutes(5)));
        assertThat(config.cluster("orders").orElseThrow().endpoints()).isEmpty();
    }

    @Test
    void refusesWhatCannotBeDiscovered() {
        assertThatThrownBy(() -> parse("""
                  - name: a
                    discovery: { registry: nacos, dubbo: { interface: x.Y } }
                """)).hasMessage("clusters[0].discovery.registry: unknown registry 'nacos' (expected one of [zk])");
        assertThatThrownBy(() -> parse("""
                  - name: a
                    endpoints: [{ address: 127.0.0.1, port: 8080 }]
                    discovery: { registry: zk, dubbo: { interface: x.Y } }
                """)).hasMessageStartingWith("clusters[0].endpoints: a cluster with discovery takes its hosts");
        assertThatThrownBy(() -> parse("""
                  - name: a
                    discovery: { registry: zk, dubbo: { interface: x.Y }, sofa: { interface: x.Y } }
                """)).hasMessage("clusters[0].discovery: expected exactly one of dubbo, sofa or per_service");
        assertThatThrownBy(() -> parse("""
                  - name: a
                    discovery: { registry: zk, per_service: grpc }
                """)).hasMessage("clusters[0].discovery.per_service: 'grpc' (expected dubbo or sofa)");
        assertThatThrownBy(() -> parse("""
                  - name: a
                    discovery: { registry: zk, dubbo: { interface: x.Y, unique_id: z } }
                """)).hasMessageStartingWith("clusters[0].discovery.dubbo.unique_id: unknown field");
        assertThatThrownBy(() -> parse("""
                  - name: a
                    discovery: { registry: zk, dubbo: { interface: x.Y }, unused_timeout: 1m }
                """)).hasMessage("clusters[0].discovery.unused_timeout: only a per_service cluster is dropped when unused");
        assertThatThrownBy(() -> ConfigLoader.parse("""
                registries:
                  - { name: zk, type: eureka, ensemble: "x:1" }
                """)).hasMessage(
                        "registries[0].type: unknown registry type 'eureka' (expected zookeeper or nacos)");
        assertThatThrownBy(() -> ConfigLoader.parse("""
                registries:
                  - { name: zk, type: zookeeper, ensemble: "x:1" }
                  - { name: zk, type: zookeeper, ensemble: "y:1" }
                """)).hasMessageContaining("registries[1]: name 'zk' is already used by registries[0]");
        assertThatThrownBy(() -> ConfigLoader.parse("""
                registries:
                  - { name: zk, type: zookeeper, ensemble: "x:1", root: prod }
                """)).hasMessage("registries[0].root: 'prod' (expected an absolute path, / for none)");
    }
}
