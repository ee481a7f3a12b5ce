package io.tollgate.filters.cors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.filters.FilterYaml;
import org.junit.jupiter.api.Test;

class CorsFilterFactoryTest {

    @Test
    void originsMatchExactlyByPrefixSuffixOrRegex() {
        CorsPolicy policy = FilterYaml.settings("""
                { name: cors, allow_origin: [ { exact: "https://a.example" }, { prefix: "https://dev." },
                  { suffix: ".test" }, { regex: "https://[0-9]+\\\\.example" } ], max_age: 600 }""", CorsPolicy.class);

        assertThat(policy.allows("https://a.example")).isTrue();
        assertThat(policy.allows("https://dev.shop")).isTrue();
        assertThat(policy.allows("http://x.test")).isTrue();
        assertThat(policy.allows("https://42.example")).isTrue();
        assertThat(policy.allows("https://b.example")).isFalse();
        assertThat(policy.maxAge()).isEqualTo("600");
        assertThat(policy.allowCredentials()).isFalse();
    }

    @Test
    void anOriginNeedsExactlyOneMatcher() {
        assertThatThrownBy(() -> ConfigLoader.parse(FilterYaml.listenerWith(
                "{ name: cors, allow_origin: [ { exact: a, prefix: b } ] }")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listeners[0].filters[0].allow_origin[0]");
    }

    @Test
    void badRegexIsRejectedWithItsPath() {
        assertThatThrownBy(() -> ConfigLoader.parse(FilterYaml.listenerWith(
                "{ name: cors, allow_origin: [ { regex: \"(\" } ] }")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listeners[0].filters[0].allow_origin[0].regex");
    }
}
