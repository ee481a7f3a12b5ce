package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Whether the gateway reloads its configuration file by itself when the file changes (an edit, a
 * file renamed over it, a Kubernetes ConfigMap's mounted directory swapped), as SIGHUP and
 * {@code POST /config/reload} reload it on demand.
 *
 * @param enabled whether the file is watched
 * @param debounce the quiet time after the last change before the file is read: several writes
 *     in a row make one reload; positive
 */
public record ConfigWatchConfig(boolean enabled, Duration debounce) {

    /** The default quiet time: longer than an editor's or a deployment tool's writes of one change take. */
    public static final Duration DEFAULT_DEBOUNCE = Duration.ofMillis(500);
    /** The default: the file is reloaded on SIGHUP or {@code POST /config/reload} only. */
    public static final ConfigWatchConfig OFF = new ConfigWatchConfig(false, DEFAULT_DEBOUNCE);

    public ConfigWatchConfig {
        requireNonNull(debounce, "debounce");
        if (debounce.isNegative() || debounce.isZero()) {
            throw new IllegalArgumentException("debounce: " + debounce + " (expected: > 0)");
        }
    }
}
