package io.tollgate.server;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * How this gateway process was started, for {@code /server_info}: its command line, and where it
 * stands in a line of hot restarts (epoch 0 and now for a process started afresh; a hot restart
 * starts the next epoch and carries the first epoch's start on).
 *
 * @param configFile the configuration file, or null for the built-in configuration
 * @param commandLine the command-line arguments
 * @param restartEpoch 0, or one more than the process this one took over from
 * @param firstEpochStarted when epoch 0 started
 */
public record Launch(Path configFile, List<String> commandLine, long restartEpoch, Instant firstEpochStarted) {

    public Launch {
        commandLine = List.copyOf(commandLine);
        requireNonNull(firstEpochStarted, "firstEpochStarted");
        if (restartEpoch < 0) {
            throw new IllegalArgumentException("restartEpoch: " + restartEpoch + " (expected: >= 0)");
        }
    }

    /** A process started afresh now, epoch 0. */
    public static Launch fresh(Path configFile, List<String> commandLine) {
        return new Launch(configFile, commandLine, 0, Instant.now());
    }
}
