package io.tollgate.filters.trace;

/**
 * Zipkin's B3 propagation: trace ids of 16 or 32 hex digits, span ids of 16; the single header
 * {@code b3} is {@code TRACEID-SPANID[-SAMPLING[-PARENTSPANID]]} (a lone sampling state,
 * {@code 0}, {@code 1} or {@code d}, carries no context and is left alone).
 */
final class B3Headers {

    /**
     * What a single {@code b3} header holds.
     *
     * @param sampling {@code 0}, {@code 1}, {@code d}, or null when absent
     */
    record Single(String traceId, String spanId, String sampling) {
    }

    private B3Headers() {
    }

    static boolean isTraceId(String value) {
        return TraceIds.isId(value, 32) || TraceIds.isId(value, 16);
    }

    /** The context of a {@code b3} header, or null when it has none or is malformed. */
    static Single parseSingle(String value) {
        if (value == null) {
            return null;
        }
        String[] fields = value.split("-", -1);
        if (fields.length < 2 || fields.length > 4 || !isTraceId(fields[0]) || !TraceIds.isId(fields[1], 16)) {
            return null;
        }
        String sampling = fields.length > 2 ? fields[2] : null;
        if (sampling != null && !(sampling.equals("0") || sampling.equals("1") || sampling.equals("d"))) {
            return null;
        }
        if (fields.length == 4 && !TraceIds.isId(fields[3], 16)) {
            return null;
        }
        return new Single(fields[0], fields[1], sampling);
    }

    /** The decision of {@code x-b3-sampled} and {@code x-b3-flags} (debug {@code 1} means sampled), or null when neither decides. */
    static Boolean sampled(String sampledHeader, String flags) {
        if ("1".equals(flags)) {
            return Boolean.TRUE;
        }
        if ("1".equals(sampledHeader) || "true".equals(sampledHeader)) {
            return Boolean.TRUE;
        }
        return "0".equals(sampledHeader) || "false".equals(sampledHeader) ? Boolean.FALSE : null;
    }

    /** The decision of a single header's sampling state ({@code d}, debug, means sampled), or null when absent. */
    static Boolean sampled(String sampling) {
        return sampling == null ? null : !sampling.equals("0");
    }

    /** A {@code b3} header; {@code sampling} and {@code parentSpanId} may be null. */
    static String formatSingle(String traceId, String spanId, String sampling, String parentSpanId) {
        StringBuilder out = new StringBuilder(traceId.length() + 40).append(traceId).append('-').append(spanId);
        if (sampling != null) {
            out.append('-').append(sampling);
            if (parentSpanId != null) {
                out.append('-').append(parentSpanId);
            }
        }
        return out.toString();
    }
}
