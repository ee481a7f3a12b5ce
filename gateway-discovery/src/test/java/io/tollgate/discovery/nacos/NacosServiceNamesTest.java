package io.tollgate.discovery.nacos;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.ProviderQueryConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Nacos service names Dubbo 3.3 and SOFARPC 5.13 register under, as their NacosRegistry sources build them. */
class NacosServiceNamesTest {

    private static ProviderQueryConfig dubbo(String group, String version) {
        return new ProviderQueryConfig("n", ProviderQueryConfig.Kind.DUBBO, "com.example.Echo", group, version, "",
                List.of("dubbo"));
    }

    private static ProviderQueryConfig sofa(String uniqueId, String... protocols) {
        return new ProviderQueryConfig("n", ProviderQueryConfig.Kind.SOFA, "com.example.Echo", "", "1.0", uniqueId,
                List.of(protocols));
    }

    @Test
    void dubboNamesKeepEmptyPartsAndTheLegacyNameLeavesThemOut() {
        assertThat(NacosServiceNames.of(dubbo("", ""))).containsExactly("providers:com.example.Echo::",
                "providers:com.example.Echo");
        // with both parts set the two names are one
        assertThat(NacosServiceNames.of(dubbo("blue", "1.0"))).containsExactly("providers:com.example.Echo:1.0:blue");
        assertThat(NacosServiceNames.of(dubbo("blue", ""))).containsExactly("providers:com.example.Echo::blue",
                "providers:com.example.Echo:blue");
        assertThat(NacosServiceNames.listed(dubbo("blue", "1.0"))).isFalse();
    }

    @Test
    void aDubboQueryOfAnyGroupOrVersionMatchesListedNames() {
        ProviderQueryConfig anyVersion = dubbo("blue", "*");
        assertThat(NacosServiceNames.listed(anyVersion)).isTrue();
        assertThat(NacosServiceNames.matches(anyVersion, "providers:com.example.Echo:2.0:blue")).isTrue();
        assertThat(NacosServiceNames.matches(anyVersion, "providers:com.example.Echo::blue")).isTrue();
        assertThat(NacosServiceNames.matches(anyVersion, "providers:com.example.Echo:2.0:green")).isFalse();
        assertThat(NacosServiceNames.matches(anyVersion, "consumers:com.example.Echo:2.0:blue")).isFalse();
        assertThat(NacosServiceNames.matches(anyVersion, "providers:com.example.EchoTwo:2.0:blue")).isFalse();
        assertThat(NacosServiceNames.matches(dubbo("", "*"), "providers:com.example.Echo:0.0.0:")).isTrue();
        assertThat(NacosServiceNames.matches(dubbo("*", "*"), "providers:com.example.Echo:1.0")).isFalse();
    }

    @Test
    void sofaNamesCarryTheUniqueIdAndDefaultForBolt() {
        assertThat(NacosServiceNames.of(sofa("", "bolt"))).containsExactly("com.example.Echo:DEFAULT");
        assertThat(NacosServiceNames.of(sofa("u1", "bolt", "tr", "h2c"))).containsExactly("com.example.Echo:u1:DEFAULT",
                "com.example.Echo:u1:h2c");
        ProviderQueryConfig any = sofa("*", "bolt");
        assertThat(NacosServiceNames.listed(any)).isTrue();
        assertThat(NacosServiceNames.matches(any, "com.example.Echo:DEFAULT")).isTrue();
        assertThat(NacosServiceNames.matches(any, "com.example.Echo:u1:DEFAULT")).isTrue();
        assertThat(NacosServiceNames.matches(any, "com.example.Echo:u1:h2c")).isFalse();
        assertThat(NacosServiceNames.matches(any, "com.example.EchoTwo:DEFAULT")).isFalse();
        assertThat(NacosServiceNames.matches(sofa("u1", "bolt"), "com.example.Echo:u2:DEFAULT")).isFalse();
    }
}
