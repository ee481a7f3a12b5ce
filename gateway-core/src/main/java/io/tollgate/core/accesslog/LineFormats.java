package io.tollgate.core.accesslog;

import static java.util.Objects.requireNonNull;

import io.tollgate.core.config.AccessLogConfig;

/** Compiles the line format an {@code access_log} block asks for, once, when the configuration loads. */
public final class LineFormats {

    private LineFormats() {
    }

    /**
     * Returns the default format when {@code config} sets neither {@code format} nor {@code json_format},
     * else the one it sets compiled.
     *
     * @throws FormatException when the format does not parse, naming the operator at fault
     */
    public static LineFormat of(AccessLogConfig config) {
        requireNonNull(config, "config");
        if (!config.jsonFormat().isEmpty()) {
            return new JsonLineFormat(config.jsonFormat());
        }
        if (config.format().isEmpty()) {
            return LineFormat.DEFAULT;
        }
        try {
            return new TextLineFormat(config.format());
        } catch (IllegalArgumentException e) {
            throw new FormatException("format", e.getMessage());
        }
    }
}
