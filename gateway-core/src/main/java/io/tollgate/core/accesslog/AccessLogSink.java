package io.tollgate.core.accesslog;

/**
 * Where a listener sends its access log entries; an interface so the proxy neither knows nor
 * waits for the file behind it.
 */
public interface AccessLogSink extends AutoCloseable {

    /**
     * Hands over one entry. Called on an event loop: it MUST NOT block or do I/O; an entry that
     * cannot be taken at once is dropped and counted.
     */
    void log(AccessLogEntry entry);

    /** The headers each entry must carry for this log's format; none for the default format. */
    default HeaderCapture capture() {
        return HeaderCapture.NONE;
    }

    /** Entries dropped so far because the writer could not keep up or the sink was closed. */
    default long dropped() {
        return 0;
    }

    /** Writes what was handed over before, then releases the file. */
    @Override
    void close();
}
