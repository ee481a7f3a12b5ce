package io.tollgate.filters.headers;

import io.tollgate.core.filter.StreamFilterContext;
import java.util.ArrayList;
import java.util.List;

/**
 * A header value compiled once: literal text with {@code %VARIABLE%}s ({@link HeaderVariable})
 * in it, {@code %%} for a literal percent sign. A value without variables renders as itself with
 * no work per request.
 */
final class HeaderTemplate {

    /** Literal text, or a {@link HeaderVariable}, in order. */
    private final Object[] parts;
    private final String literal;

    private HeaderTemplate(Object[] parts, String literal) {
        this.parts = parts;
        this.literal = literal;
    }

    /** A value taken as it is, percent signs included (the route-level form). */
    static HeaderTemplate literal(String value) {
        return new HeaderTemplate(null, value);
    }

    /**
     * Compiles {@code value}.
     *
     * @throws IllegalArgumentException naming what is wrong: an unknown variable, or a lone {@code %}
     */
    static HeaderTemplate compile(String value) {
        List<Object> parts = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < value.length()) {
            char c = value.charAt(i);
            if (c != '%') {
                text.append(c);
                i++;
                continue;
            }
            int end = value.indexOf('%', i + 1);
            if (end < 0) {
                throw new IllegalArgumentException("'" + value + "': a '%' at " + i
                        + " opens no variable (write %% for a percent sign)");
            }
            if (end == i + 1) {
                text.append('%');
            } else {
                String name = value.substring(i + 1, end);
                HeaderVariable variable;
                try {
                    variable = HeaderVariable.valueOf(name);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("'" + value + "': unknown variable %" + name + "% (expected one of "
                            + List.of(HeaderVariable.values()) + ")");
                }
                if (text.length() > 0) {
                    parts.add(text.toString());
                    text.setLength(0);
                }
                parts.add(variable);
            }
            i = end + 1;
        }
        if (parts.isEmpty()) {
            return literal(text.toString());
        }
        if (text.length() > 0) {
            parts.add(text.toString());
        }
        return new HeaderTemplate(parts.toArray(), null);
    }

    /** The value for {@code context}'s request. */
    String render(StreamFilterContext context) {
        if (parts == null) {
            return literal;
        }
        StringBuilder value = new StringBuilder();
        for (Object part : parts) {
            value.append(part instanceof HeaderVariable ? ((HeaderVariable) part).value(context) : (String) part);
        }
        return value.toString();
    }
}
