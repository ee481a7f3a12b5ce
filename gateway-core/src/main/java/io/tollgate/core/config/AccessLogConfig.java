package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a listener writes its access log, and in what form.
 *
 * @param path a file path, {@code stdout}, or empty for no access log
 * @param format an Envoy-style format string, or empty for the default line (see docs/access-log.md)
 * @param jsonFormat keys and the format string of each value, for one JSON object per line; empty
 *     for a text line. At most one of {@code format} and {@code jsonFormat} is set.
 */
public record AccessLogConfig(String path, String format, Map<String, String> jsonFormat) {

    /** No access log. */
    public static final AccessLogConfig DISABLED = new AccessLogConfig("");

    public AccessLogConfig {
        requireNonNull(path, "path");
        requireNonNull(format, "format");
        jsonFormat = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(jsonFormat, "jsonFormat")));
        if (!format.isEmpty() && !jsonFormat.isEmpty()) {
            throw new IllegalArgumentException("format and json_format: both set (expected at most one)");
        }
    }

    /** The log at {@code path} in the default format. */
    public AccessLogConfig(String path) {
        this(path, "", Map.of());
    }

    /** Returns whether anything is logged. */
    public boolean enabled() {
        return !path.isEmpty();
    }
}
