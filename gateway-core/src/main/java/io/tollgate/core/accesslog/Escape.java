package io.tollgate.core.accesslog;

/** How a value is written so that it cannot break the line it stands in. */
enum Escape {

    /**
     * For text lines: {@code "}, {@code \}, control characters and DEL become {@code \xHH}, so a value
     * cannot end a line, close a quoted field or forge an escape.
     */
    TEXT {
        @Override
        void append(CharSequence value, int end, StringBuilder out) {
            for (int i = 0; i < end; i++) {
                char c = value.charAt(i);
                if (c == '"' || c == '\\' || c < ' ' || c == 0x7f) {
                    out.append("\\x").append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
                } else {
                    out.append(c);
                }
            }
        }
    },

    /**
     * For JSON strings, as RFC 8259 asks: quotes, backslashes and control characters escaped, and DEL,
     * U+2028 and U+2029 too, which some JSON readers take for line ends.
     */
    JSON {
        @Override
        void append(CharSequence value, int end, StringBuilder out) {
            for (int i = 0; i < end; i++) {
                char c = value.charAt(i);
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    default -> {
                        if (c < ' ' || c == 0x7f || c == '\u2028' || c == '\u2029') {
                            out.append("\\u").append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf])
                                    .append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
        }
    };

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Appends the first {@code end} characters of {@code value}, escaped. */
    abstract void append(CharSequence value, int end, StringBuilder out);

    /** Appends all of {@code value}, escaped. */
    void append(CharSequence value, StringBuilder out) {
        append(value, value.length(), out);
    }
}
