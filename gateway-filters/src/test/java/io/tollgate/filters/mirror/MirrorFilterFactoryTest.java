package io.tollgate.filters.mirror;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.filters.FilterYaml;
import org.junit.jupiter.api.Test;

class MirrorFilterFactoryTest {

    @Test
    void readsTheClusterAPercentAndDefaults() {
        MirrorSettings settings = FilterYaml.withFilter("{ name: mirror, cluster: app, percent: 12.5 }")
                .filters().get(0).settings(MirrorSettings.class);

        assertThat(settings).isEqualTo(new MirrorSettings("app", 125_000, MirrorSettings.DEFAULT_MAX_BODY_BYTES, null));
    }

    @Test
    void percentOutOfRangeIsRejectedWithItsPath() {
        assertThatThrownBy(() -> FilterYaml.withFilter("{ name: mirror, cluster: app, percent: 101 }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listeners[0].filters[0].percent")
                .hasMessageContaining("expected: 0 to 100");
    }

    @Test
    void clusterIsRequired() {
        assertThatThrownBy(() -> FilterYaml.withFilter("{ name: mirror, percent: 10 }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listeners[0].filters[0].cluster");
    }
}
