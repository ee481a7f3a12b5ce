package io.tollgate.server.configwatch;

import io.tollgate.core.config.ConfigWatchConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the watch of a gateway's configuration file on and off as the {@code config_watch} of
 * each configuration applied says (at start and after each reload), so that a reload adding or
 * removing the block takes effect like any other change; closed with the gateway, after which it
 * starts nothing. Thread-safe: the gateway's start, its control thread and its close call it.
 */
public final class ConfigWatchSwitch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ConfigWatchSwitch.class);

    private final Path file;
    private final Supplier<Duration> debounce;
    private final Runnable reload;
    private ConfigFileWatch watch;
    private boolean closed;

    /**
     * For the configuration file {@code file} (none: null, nothing is ever watched); a change runs
     * {@code reload} after the quiet time {@code debounce} gives at that moment.
     */
    public ConfigWatchSwitch(Path file, Supplier<Duration> debounce, Runnable reload) {
        this.file = file;
        this.debounce = debounce;
        this.reload = reload;
    }

    /** Watches the file or stops watching it, as {@code settings} of the configuration just applied say. */
    public synchronized void follow(ConfigWatchConfig settings) {
        boolean wanted = file != null && settings.enabled() && !closed;
        if (wanted == (watch != null)) {
            return;
        }
        if (!wanted) {
            stop();
            return;
        }
        try {
            watch = ConfigFileWatch.start(file, debounce, reload);
        } catch (IOException e) {
            log.warn("config_watch: cannot watch {} ({}); reload it with SIGHUP or POST /config/reload", file,
                    e.toString());
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        stop();
    }

    private void stop() {
        if (watch != null) {
            watch.close();
            watch = null;
        }
    }
}
