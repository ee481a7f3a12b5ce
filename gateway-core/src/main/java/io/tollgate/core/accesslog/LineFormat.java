package io.tollgate.core.accesslog;

/**
 * How an access log turns an entry into one line: the default format, or one compiled from a
 * listener's {@code format} or {@code json_format} by {@link LineFormats}. Immutable and used by
 * the log's writer thread only.
 */
public interface LineFormat {

    /** The default line, byte for byte what the gateway wrote before formats could be configured. */
    LineFormat DEFAULT = new LineFormat() {
        @Override
        public void append(AccessLogEntry entry, StringBuilder out) {
            AccessLogFormat.append(entry, out);
        }

        @Override
        public HeaderCapture capture() {
            return HeaderCapture.NONE;
        }
    };

    /** Appends the entry's line, ending with one newline. */
    void append(AccessLogEntry entry, StringBuilder out);

    /** The headers whose values entries must carry for this format. */
    HeaderCapture capture();
}
