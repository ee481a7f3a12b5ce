package io.tollgate.core.accesslog;

import java.util.List;

/**
 * A line from a format string: each part in turn, {@code -} for a missing value, values from
 * traffic escaped ({@link Escape#TEXT}), and one newline at the end whether or not the format
 * writes one.
 */
final class TextLineFormat implements LineFormat {

    private final FormatPart[] parts;
    private final boolean endsWithNewline;
    private final HeaderCapture capture;

    TextLineFormat(String format) {
        FormatParser parser = new FormatParser();
        List<FormatPart> parsed = parser.parse(format);
        this.parts = parsed.toArray(FormatPart[]::new);
        this.endsWithNewline = format.endsWith("\n");
        this.capture = parser.capture();
    }

    @Override
    public void append(AccessLogEntry entry, StringBuilder out) {
        for (FormatPart part : parts) {
            if (!part.append(entry, out, Escape.TEXT)) {
                out.append('-');
            }
        }
        if (!endsWithNewline) {
            out.append('\n');
        }
    }

    @Override
    public HeaderCapture capture() {
        return capture;
    }
}
