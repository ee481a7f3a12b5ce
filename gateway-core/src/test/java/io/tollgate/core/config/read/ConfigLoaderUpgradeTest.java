package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.GatewayConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code upgrade.socket_path}, where a hot restart finds the running gateway, as the loader reads it. */
class ConfigLoaderUpgradeTest {

    @Test
    void readsTheSocketPath() {
        GatewayConfig config = ConfigLoader.parse("upgrade: { socket_path: /run/tollgate/upgrade.sock }\n");

        assertThat(config.upgrade().socketPath()).isEqualTo(Path.of("/run/tollgate/upgrade.sock"));
    }

    @Test
    void defaultsToTheTemporaryDirectoryKeyedByTheAdminPort() {
        GatewayConfig config = ConfigLoader.parse("admin: { port: 9911 }\n");

        assertThat(config.upgrade().socketPath())
                .isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "tollgate-upgrade-9911.sock"));
    }

    @Test
    void namesABadSettingByItsPath() {
        assertRejected("upgrade: { socket_path: \"\" }\n", "upgrade.socket_path: must not be empty");
        assertRejected("upgrade: { socket_path: \"  \" }\n", "upgrade.socket_path: '  ' (expected: a non-blank path of at most 107 bytes");
        assertRejected("upgrade: { socket_path: /" + "x".repeat(107) + " }\n", "upgrade.socket_path: '/xxx");
        assertRejected("upgrade: { path: /tmp/x.sock }\n", "upgrade.path: unknown field (expected one of [socket_path])");
        assertRejected("upgrade: {}\n", "upgrade.socket_path: required");
    }

    private static void assertRejected(String yaml, String message) {
        assertThatThrownBy(() -> ConfigLoader.parse(yaml)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(message);
    }
}
