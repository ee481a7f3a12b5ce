package io.tollgate.core.accesslog;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * One piece of a compiled format: literal text or one operator, writing straight into the line
 * from the entry's fields, so that formatting a line allocates nothing per operator.
 */
sealed interface FormatPart {

    /**
     * Appends this part's value for {@code entry}, escaped with {@code escape} where it comes from
     * traffic; returns false, appending nothing, when the entry has no value for it.
     */
    boolean append(AccessLogEntry entry, StringBuilder out, Escape escape);

    /** Text the format itself holds, written as it is. */
    record Literal(String text) implements FormatPart {
        @Override
        public boolean append(AccessLogEntry entry, StringBuilder out, Escape escape) {
            out.append(text);
            return true;
        }
    }

    /** A text field of the entry, cut to {@code maxLength} characters (0: no limit). */
    record Text(Function<AccessLogEntry, String> field, int maxLength) implements FormatPart {
        @Override
        public boolean append(AccessLogEntry entry, StringBuilder out, Escape escape) {
            String value = field.apply(entry);
            if (value == null || value.isEmpty()) {
                return false;
            }
            escape.append(value, maxLength > 0 ? Math.min(maxLength, value.length()) : value.length(), out);
            return true;
        }
    }

    /** A numeric field of the entry: a JSON format writes it as a number when it stands alone. */
    record Number(ToLongFunction<AccessLogEntry> field) implements FormatPart {
        @Override
        public boolean append(AccessLogEntry entry, StringBuilder out, Escape escape) {
            out.append(field.applyAsLong(entry));
            return true;
        }
    }

    /** The request's start time in a pattern compiled once from the format's strftime form. */
    record StartTime(DateTimeFormatter pattern) implements FormatPart {
        @Override
        public boolean append(AccessLogEntry entry, StringBuilder out, Escape escape) {
            pattern.formatTo(Instant.ofEpochMilli(entry.startEpochMillis()), out);
            return true;
        }
    }
}
