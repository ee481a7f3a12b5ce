package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What an HTTP health probe sends and which answers count as a pass.
 *
 * @param path the request target of the probe's {@code GET}
 * @param expectedStatuses the statuses that pass; any other status fails the probe
 */
public record HttpHealthCheckConfig(String path, List<StatusRange> expectedStatuses) {

    /** {@code GET /}, passing on any 2xx or 3xx. */
    public static final HttpHealthCheckConfig DEFAULTS = new HttpHealthCheckConfig("/", List.of(new StatusRange(200, 399)));

    /** A range of HTTP statuses, both ends included. */
    public record StatusRange(int from, int to) {

        public StatusRange {
            if (from < 100 || to > 599 || from > to) {
                throw new IllegalArgumentException("status range: " + from + "-" + to + " (expected: 100 <= from <= to <= 599)");
            }
        }

        public boolean contains(int status) {
            return status >= from && status <= to;
        }
    }

    public HttpHealthCheckConfig {
        requireNonNull(path, "path");
        expectedStatuses = List.copyOf(expectedStatuses);
        if (expectedStatuses.isEmpty()) {
            throw new IllegalArgumentException("expectedStatuses: [] (expected at least one range)");
        }
    }

    /** Whether {@code status} passes the probe. */
    public boolean expects(int status) {
        for (StatusRange range : expectedStatuses) {
            if (range.contains(status)) {
                return true;
            }
        }
        return false;
    }
}
