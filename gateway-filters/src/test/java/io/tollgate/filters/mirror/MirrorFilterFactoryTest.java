package io.tollgate.filters.mirror;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.filters.FilterYaml;
import org.junit.jupiter.api.Test;

class MirrorFilterFactoryTest {

    @Test
    void readsTheClusterAPercentAndDefaults() {
        MirrorSettings settings = FilterYaml.settings("{ name: mirror, cluster: app, percent: 12.5 }",
                MirrorSettings.class);

        assertThat(settings).isEqualTo(new MirrorSettings("app", 125_000, MirrorSettings.DEFAULT_MAX_BODY_BYTES, null));
    }

    @Test
    void percentOutOfRangeIsRejectedWithItsPath() {
        assertThatThrownBy(() -> ConfigLoader.parse(FilterYaml.listenerWith("{ name: mirror, cluster: app, percent: 101 }")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listeners[0].filters[0].percent")
                .hasMessageContaining("expected: 0 to 100");
    }

    @Test
    void aClusterNoClusterHasIsRejectedAtLoad() {
        assertThatThrownBy(() -> ConfigLoader.parse(FilterYaml.listenerWith("{ name: mirror, cluster: nowhere }")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("listeners[0].filters[0].cluster: unknown cluster 'nowhere'");
    }

    @Test
    void clusterIsRequired() {
        assertThatThrownBy(() -> ConfigLoader.parse(FilterYaml.listenerWith("{ name: mirror, percent: 10 }")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listeners[0].filters[0].cluster");
    }
}
