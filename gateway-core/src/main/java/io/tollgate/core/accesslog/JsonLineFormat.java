package io.tollgate.core.accesslog;

import java.util.Map;

/**
 * A line that is one JSON object, as Envoy's {@code json_format}: each key's value is a format
 * string. A value that is a single numeric operator ({@code %DURATION%}, {@code %RESPONSE_CODE%},
 * {@code %BYTES_RECEIVED%}, {@code %BYTES_SENT%}) is written as a number, a single operator
 * without a value as {@code null}, anything else as a string in which a missing value reads
 * {@code -}. Keys keep the configuration's order.
 */
final class JsonLineFormat implements LineFormat {

    private final String[] keys;
    private final FormatPart[][] values;
    private final HeaderCapture capture;

    /**
     * @throws FormatException naming the key whose value does not parse
     */
    JsonLineFormat(Map<String, String> format) {
        FormatParser parser = new FormatParser();
        this.keys = new String[format.size()];
        this.values = new FormatPart[format.size()][];
        int i = 0;
        for (Map.Entry<String, String> field : format.entrySet()) {
            StringBuilder key = new StringBuilder(field.getKey().length() + 4).append('"');
            Escape.JSON.append(field.getKey(), key);
            keys[i] = key.append("\":").toString();
            try {
                values[i] = parser.parse(field.getValue()).stream().map(JsonLineFormat::escapedLiteral)
                        .toArray(FormatPart[]::new);
            } catch (IllegalArgumentException e) {
                throw new FormatException("json_format." + field.getKey(), e.getMessage());
            }
            i++;
        }
        this.capture = parser.capture();
    }

    @Override
    public void append(AccessLogEntry entry, StringBuilder out) {
        out.append('{');
        for (int i = 0; i < keys.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(keys[i]);
            value(values[i], entry, out);
        }
        out.append("}\n");
    }

    private static void value(FormatPart[] parts, AccessLogEntry entry, StringBuilder out) {
        if (parts.length == 1 && parts[0] instanceof FormatPart.Number number) {
            number.append(entry, out, Escape.JSON);
            return;
        }
        int start = out.length();
        out.append('"');
        for (FormatPart part : parts) {
            if (!part.append(entry, out, Escape.JSON)) {
                if (parts.length == 1) {
                    out.setLength(start);
                    out.append("null");
                    return;
                }
                out.append('-');
            }
        }
        out.append('"');
    }

    /** A literal escaped once here rather than on every line. */
    private static FormatPart escapedLiteral(FormatPart part) {
        if (!(part instanceof FormatPart.Literal literal)) {
            return part;
        }
        StringBuilder escaped = new StringBuilder(literal.text().length());
        Escape.JSON.append(literal.text(), escaped);
        return new FormatPart.Literal(escaped.toString());
    }

    @Override
    public HeaderCapture capture() {
        return capture;
    }
}
