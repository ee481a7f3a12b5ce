package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * Where a running gateway waits for its successor in a hot restart ({@code tollgate run --upgrade}):
 * a Unix domain socket over which the listening sockets, idle connections and counters move to the
 * new process. Two gateways on one host need two paths; the default is keyed by the admin port for
 * that reason.
 *
 * @param socketPath the Unix domain socket's path
 */
public record UpgradeConfig(Path socketPath) {

    public UpgradeConfig {
        requireNonNull(socketPath, "socketPath");
    }

    /** The default path: {@code tollgate-upgrade-<admin port>.sock} in {@code java.io.tmpdir}. */
    public static UpgradeConfig defaults(AdminConfig admin) {
        return new UpgradeConfig(Path.of(System.getProperty("java.io.tmpdir"), "tollgate-upgrade-" + admin.port() + ".sock"));
    }
}
