package io.tollgate.filters.cors;

import com.google.re2j.Pattern;

/**
 * One entry of a CORS policy's {@code allow_origin}: an origin matched exactly, by prefix, by
 * suffix or by a regular expression (RE2, linear time) over the whole origin. {@code exact: "*"} allows every origin.
 */
sealed interface OriginMatcher {

    boolean matches(String origin);

    /** Matches {@code value} exactly, or, for {@code *}, anything. */
    record Exact(String value) implements OriginMatcher {
        @Override
        public boolean matches(String origin) {
            return value.equals("*") || value.equals(origin);
        }
    }

    /** Matches origins starting with {@code value}. */
    record Prefix(String value) implements OriginMatcher {
        @Override
        public boolean matches(String origin) {
            return origin.startsWith(value);
        }
    }

    /** Matches origins ending with {@code value}. */
    record Suffix(String value) implements OriginMatcher {
        @Override
        public boolean matches(String origin) {
            return origin.endsWith(value);
        }
    }

    /** Matches origins the whole of which {@code pattern} matches. */
    record Regex(Pattern pattern) implements OriginMatcher {
        @Override
        public boolean matches(String origin) {
            return pattern.matcher(origin).matches();
        }
    }
}
