package io.tollgate.admin;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;

/**
 * What {@code GET /server_info} shows of the process, in the shape of Envoy's answer.
 *
 * @param version the gateway's version
 * @param state {@code LIVE}, {@code DRAINING}, {@code PRE_INITIALIZING} or {@code INITIALIZING}
 * @param uptimeCurrentEpoch how long this process has run
 * @param uptimeAllEpochs how long the gateway has run across hot restarts
 * @param restartEpoch 0 for a process started afresh, one more for each hot restart
 * @param configPath the configuration file, or null when started on the built-in configuration
 * @param drainTimeout how long a drain lets requests in flight finish
 * @param commandLine the process's command-line arguments
 */
public record ServerInfo(String version, String state, Duration uptimeCurrentEpoch, Duration uptimeAllEpochs,
        long restartEpoch, String configPath, Duration drainTimeout, List<String> commandLine) {

    public ServerInfo {
        requireNonNull(version, "version");
        requireNonNull(state, "state");
        requireNonNull(uptimeCurrentEpoch, "uptimeCurrentEpoch");
        requireNonNull(uptimeAllEpochs, "uptimeAllEpochs");
        requireNonNull(drainTimeout, "drainTimeout");
        commandLine = List.copyOf(commandLine);
    }
}
