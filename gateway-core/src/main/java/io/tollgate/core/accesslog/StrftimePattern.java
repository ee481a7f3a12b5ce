package io.tollgate.core.accesslog;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.SignStyle;
import java.time.format.TextStyle;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * Compiles the strftime-like pattern of {@code %START_TIME(...)%}, as Envoy reads it, into a
 * {@link DateTimeFormatter} in UTC. Beside strftime's usual directives it takes Envoy's {@code %f}
 * (nanoseconds, nine digits) and {@code %1f} to {@code %9f} (that many fraction digits), and
 * {@code %s} for seconds since the epoch, so {@code %s%3f} writes epoch milliseconds.
 */
final class StrftimePattern {

    /** Envoy's default start time, e.g. {@code 2023-11-14T22:13:20.123Z}. */
    static final String DEFAULT = "%Y-%m-%dT%H:%M:%S.%3fZ";

    private StrftimePattern() {
    }

    /**
     * Returns the formatter for {@code pattern}.
     *
     * @throws IllegalArgumentException naming the first directive it does not know
     */
    static DateTimeFormatter compile(String pattern) {
        DateTimeFormatterBuilder b = new DateTimeFormatterBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%') {
                b.appendLiteral(c);
                continue;
            }
            if (++i == pattern.length()) {
                throw new IllegalArgumentException("start time pattern '" + pattern + "' ends with a lone %");
            }
            char d = pattern.charAt(i);
            if (d >= '1' && d <= '9' && i + 1 < pattern.length() && pattern.charAt(i + 1) == 'f') {
                b.appendFraction(ChronoField.NANO_OF_SECOND, d - '0', d - '0', false);
                i++;
                continue;
            }
            directive(b, d, pattern);
        }
        return b.toFormatter(Locale.US).withZone(ZoneOffset.UTC);
    }

    private static void directive(DateTimeFormatterBuilder b, char d, String pattern) {
        switch (d) {
            case 'Y' -> b.appendValue(ChronoField.YEAR, 4, 10, SignStyle.EXCEEDS_PAD);
            case 'y' -> b.appendValueReduced(ChronoField.YEAR, 2, 2, 2000);
            case 'm' -> b.appendValue(ChronoField.MONTH_OF_YEAR, 2);
            case 'd' -> b.appendValue(ChronoField.DAY_OF_MONTH, 2);
            case 'j' -> b.appendValue(ChronoField.DAY_OF_YEAR, 3);
            case 'H' -> b.appendValue(ChronoField.HOUR_OF_DAY, 2);
            case 'M' -> b.appendValue(ChronoField.MINUTE_OF_HOUR, 2);
            case 'S' -> b.appendValue(ChronoField.SECOND_OF_MINUTE, 2);
            case 'b' -> b.appendText(ChronoField.MONTH_OF_YEAR, TextStyle.SHORT);
            case 'a' -> b.appendText(ChronoField.DAY_OF_WEEK, TextStyle.SHORT);
            case 'F' -> b.appendPattern("uuuu-MM-dd");
            case 'T' -> b.appendPattern("HH:mm:ss");
            case 'z' -> b.appendOffset("+HHMM", "+0000");
            case 'Z' -> b.appendLiteral("UTC");
            case 'f' -> b.appendFraction(ChronoField.NANO_OF_SECOND, 9, 9, false);
            case 's' -> b.appendValue(ChronoField.INSTANT_SECONDS);
            case '%' -> b.appendLiteral('%');
            default -> throw new IllegalArgumentException("start time pattern '" + pattern + "': unknown directive %" + d
                    + " (expected one of %Y %y %m %d %j %H %M %S %b %a %F %T %z %Z %f %1f..%9f %s %%)");
        }
    }
}
