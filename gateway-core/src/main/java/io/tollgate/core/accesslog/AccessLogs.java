package io.tollgate.core.accesslog;

import static java.util.Objects.requireNonNull;

import io.tollgate.core.config.AccessLogConfig;
import java.io.FileDescriptor;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.UncheckedIOException;

/** Opens the access log a listener's configuration asks for. */
public final class AccessLogs {

    /** The path that means the process's standard output. */
    public static final String STDOUT = "stdout";

    /** Entries that may wait for the writer before new ones are dropped. */
    static final int QUEUE_CAPACITY = 16_384;

    private static final AccessLogSink DISABLED = new AccessLogSink() {
        @Override
        public void log(AccessLogEntry entry) {
        }

        @Override
        public void close() {
        }
    };

    private AccessLogs() {
    }

    /**
     * Returns a sink that discards everything when the log is disabled, otherwise an
     * asynchronous writer appending to the file (created when missing) or to standard output.
     *
     * @throws UncheckedIOException when the file cannot be opened for appending
     * @throws FormatException when the format does not parse (the loader has checked it before)
     */
    public static AccessLogSink open(AccessLogConfig config) {
        requireNonNull(config, "config");
        if (!config.enabled()) {
            return DISABLED;
        }
        LineFormat format = LineFormats.of(config);
        if (config.path().equals(STDOUT)) {
            return new AsyncAccessLogWriter(new FileOutputStream(FileDescriptor.out), false, STDOUT, format,
                    QUEUE_CAPACITY);
        }
        try {
            return new AsyncAccessLogWriter(new FileOutputStream(config.path(), true), true, config.path(), format,
                    QUEUE_CAPACITY);
        } catch (FileNotFoundException e) {
            throw new UncheckedIOException("access log: cannot open '" + config.path() + "' for appending", e);
        }
    }
}
