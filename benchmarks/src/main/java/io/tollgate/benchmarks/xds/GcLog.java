package io.tollgate.benchmarks.xds;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The stop-the-world pauses a JVM wrote to its GC log ({@code -Xlog:gc,gc+phases:file=...}):
 * every collector logs a pause as a line with {@code Pause} ending in its duration ({@code
 * Pause Young (Normal) (G1 Evacuation Pause) 24M->8M(256M) 3.456ms}, ZGC's {@code Pause Mark Start
 * 0.012ms}); concurrent phases are not pauses.
 */
public record GcLog(Path file) {

    private static final Pattern PAUSE = Pattern.compile(" Pause .* (\\d+(?:\\.\\d+)?)ms$");

    /** The JVM options that make a JVM write this log. */
    String jvmOption() {
        return "-Xlog:gc,gc+phases=info:file=" + file;
    }

    /** How many lines the log has now: a mark for {@link #pausesSince}. */
    public int lines() throws IOException {
        return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    }

    /** The pauses logged after line {@code mark}: count, total and longest. */
    public String pausesSince(int mark) throws IOException {
        List<String> lines = Files.readAllLines(file);
        int pauses = 0;
        double total = 0;
        double longest = 0;
        for (String line : lines.subList(Math.min(mark, lines.size()), lines.size())) {
            Matcher pause = PAUSE.matcher(line);
            if (pause.find()) {
                double millis = Double.parseDouble(pause.group(1));
                pauses++;
                total += millis;
                longest = Math.max(longest, millis);
            }
        }
        return String.format("%d pauses, %.0f ms in all, longest %.1f ms", pauses, total, longest);
    }
}
