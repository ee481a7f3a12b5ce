package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.NacosSettings;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.core.config.RegistryConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A {@code registries:} entry of {@code type: nacos}, read and checked, and clusters discovered in it. */
class NacosRegistryReaderTest {

    @Test
    void readsEveryNacosSettingAndTheClustersOfTheRegistry() {
        GatewayConfig config = ConfigLoader.parse("""
                registries:
                  - name: nacos
                    type: nacos
                    servers: "10.0.0.1:8848,10.0.0.2:8848"
                    namespace: sofa-rpc
                    group: gateway
                    connection_timeout: 2s
                    request_timeout: 500ms
                    auth: { username: nacos, password: secret }
                clusters:
                  - name: orders
                    discovery: { registry: nacos, dubbo: { interface: com.example.Orders, version: "2.0" } }
                """);

        RegistryConfig nacos = config.discovery().registry("nacos").orElseThrow();
        assertThat(nacos).isEqualTo(new RegistryConfig("nacos", RegistryConfig.NACOS, "10.0.0.1:8848,10.0.0.2:8848",
                "/", DiscoveryConfigLoader.DEFAULT_SESSION_TIMEOUT, Duration.ofSeconds(2),
                Optional.of(new RegistryConfig.DigestAuth("nacos", "secret")),
                Optional.of(new NacosSettings("sofa-rpc", "gateway", Duration.ofMillis(500)))));
        assertThat(nacos.toString()).doesNotContain("secret");
        assertThat(config.discovery().clusters().get("orders")).isEqualTo(new ProviderQueryConfig("nacos",
                ProviderQueryConfig.Kind.DUBBO, "com.example.Orders", "", "2.0", "", List.of("dubbo")));
    }

    @Test
    void defaultsAreNacosClientsOwn() {
        RegistryConfig nacos = ConfigLoader.parse("""
                registries:
                  - { name: nacos, type: nacos, servers: "127.0.0.1:8848" }
                """).discovery().registry("nacos").orElseThrow();

        assertThat(nacos.nacos()).contains(new NacosSettings("", "DEFAULT_GROUP", Duration.ofSeconds(3)));
        assertThat(nacos.connectionTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(nacos.auth()).isEmpty();
    }

    @Test
    void refusesZooKeeperSettingsAndAnEmptyGroup() {
        assertThatThrownBy(() -> ConfigLoader.parse("""
                registries:
                  - { name: nacos, type: nacos, servers: "x:8848", root: /dubbo }
                """)).hasMessageStartingWith("registries[0].root: unknown field");
        assertThatThrownBy(() -> ConfigLoader.parse("""
                registries:
                  - { name: nacos, type: nacos, ensemble: "x:8848" }
                """)).hasMessageContaining("registries[0].ensemble: unknown field");
        assertThatThrownBy(() -> ConfigLoader.parse("""
                registries:
                  - { name: nacos, type: nacos, servers: "x:8848", group: " " }
                """)).hasMessage("registries[0].group: must not be empty (Nacos's default is DEFAULT_GROUP)");
        assertThatThrownBy(() -> ConfigLoader.parse("""
                registries:
                  - { name: nacos, type: nacos, servers: "x:8848", request_timeout: 0s }
                """)).hasMessageContaining("registries[0].request_timeout: must be positive");
    }
}
