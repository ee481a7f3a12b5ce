package io.tollgate.core.config;

/**
 * Where a listener writes its access log.
 *
 * @param path a file path, {@code stdout}, or empty for no access log
 */
public record AccessLogConfig(String path) {

    /** No access log. */
    public static final AccessLogConfig DISABLED = new AccessLogConfig("");

    /** Returns whether anything is logged. */
    public boolean enabled() {
        return !path.isEmpty();
    }
}
