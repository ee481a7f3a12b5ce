package io.tollgate.core.accesslog;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Formats an entry as one line, close to Envoy's default access log format; the fields are
 * documented in {@code docs/access-log.md}.
 *
 * <pre>
 * [START_TIME] "METHOD PATH PROTOCOL" STATUS FLAGS BYTES_RECEIVED BYTES_SENT DURATION_MS
 *     "REQUEST_ID" "AUTHORITY" "UPSTREAM_HOST" LISTENER ROUTE DOWNSTREAM_ADDRESS DOWNSTREAM_PEER
 * </pre>
 *
 * Quoted fields come from the client and are escaped, so a request cannot forge a log line.
 */
final class AccessLogFormat {

    private static final DateTimeFormatter START_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private AccessLogFormat() {
    }

    /** Appends the entry's line, ending with a newline. */
    static void append(AccessLogEntry e, StringBuilder out) {
        out.append('[');
        START_TIME.formatTo(Instant.ofEpochMilli(e.startEpochMillis()), out);
        out.append("] \"");
        escaped(e.method(), out);
        out.append(' ');
        escaped(e.path(), out);
        out.append(' ');
        escaped(e.protocol(), out);
        out.append("\" ").append(e.status())
                .append(' ').append(e.responseFlags())
                .append(' ').append(e.bytesReceived())
                .append(' ').append(e.bytesSent())
                .append(' ');
        milliseconds(e.durationMicros(), out);
        out.append(' ');
        quoted(e.requestId(), out);
        out.append(' ');
        quoted(e.authority(), out);
        out.append(' ');
        quoted(e.upstreamHost(), out);
        out.append(' ');
        escaped(e.listener(), out);
        out.append(' ');
        escaped(e.route(), out);
        out.append(' ');
        escaped(e.downstreamAddress(), out);
        out.append(' ');
        escaped(e.downstreamPeer(), out);
        out.append('\n');
    }

    /** Writes microseconds as milliseconds with three decimals, e.g. {@code 12.345}; negative as 0. */
    private static void milliseconds(long durationMicros, StringBuilder out) {
        long micros = Math.max(0, durationMicros);
        long fraction = micros % 1000;
        out.append(micros / 1000).append('.');
        if (fraction < 100) {
            out.append('0');
        }
        if (fraction < 10) {
            out.append('0');
        }
        out.append(fraction);
    }

    private static void quoted(String value, StringBuilder out) {
        out.append('"');
        escaped(value, out);
        out.append('"');
    }

    /** Writes {@code -} for a missing value; escapes quotes, backslashes, spaces and control characters. */
    private static void escaped(String value, StringBuilder out) {
        if (value == null || value.isEmpty()) {
            out.append('-');
            return;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\' || c <= ' ' || c == 0x7f) {
                out.append("\\x").append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
            } else {
                out.append(c);
            }
        }
    }
}
