package io.tollgate.filters.trace;

/**
 * The W3C {@code traceparent} header, {@code VERSION-TRACEID-PARENTID-FLAGS}: version 00 is exactly
 * 55 characters; a later version may add fields after the flags, which a version-00 reader
 * ignores; version {@code ff} and all-zero ids are invalid.
 */
final class W3cTraceparent {

    /** The flags of a sampled trace. */
    static final String SAMPLED = "01";

    /** The flags of a trace not sampled. */
    static final String NOT_SAMPLED = "00";

    private static final int LENGTH = 55;

    private W3cTraceparent() {
    }

    static boolean isValid(String value) {
        if (value == null || value.length() < LENGTH || (value.length() > LENGTH && value.charAt(LENGTH) != '-')) {
            return false;
        }
        if (value.charAt(2) != '-' || value.charAt(35) != '-' || value.charAt(52) != '-') {
            return false;
        }
        String version = value.substring(0, 2);
        if (!isHex(version) || version.equals("ff") || (version.equals("00") && value.length() != LENGTH)) {
            return false;
        }
        return TraceIds.isId(traceId(value), 32) && TraceIds.isId(parentId(value), 16) && isHex(flags(value));
    }

    static String traceId(String value) {
        return value.substring(3, 35);
    }

    static String parentId(String value) {
        return value.substring(36, 52);
    }

    static String flags(String value) {
        return value.substring(53, 55);
    }

    /** A version-00 header. */
    static String format(String traceId, String parentId, String flags) {
        return "00-" + traceId + "-" + parentId + "-" + flags;
    }

    private static boolean isHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }
}
