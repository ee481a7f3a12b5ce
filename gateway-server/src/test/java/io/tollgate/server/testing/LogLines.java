package io.tollgate.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/** Reads an access log file the gateway writes in the background, waiting for the line a test expects. */
public final class LogLines {

    private static final Duration WAIT = Duration.ofSeconds(5);

    private LogLines() {
    }

    /** The file's lines so far; none when it does not exist yet. */
    public static List<String> read(Path log) {
        try {
            return Files.exists(log) ? Files.readAllLines(log) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits up to five seconds for a line that {@code wanted} accepts and returns the last such line. */
    public static String await(Path log, Predicate<String> wanted) throws InterruptedException {
        Await.until("an access log line", WAIT, () -> read(log).stream().anyMatch(wanted));
        return read(log).stream().filter(wanted).reduce((first, second) -> second).orElseThrow();
    }

    /** Waits up to five seconds for at least {@code count} lines and returns them. */
    public static List<String> await(Path log, int count) throws InterruptedException {
        Await.until(count + " access log lines", WAIT, () -> read(log).size() >= count);
        return read(log);
    }
}
