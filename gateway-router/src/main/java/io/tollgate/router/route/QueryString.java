package io.tollgate.router.route;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** Finds one parameter in a raw query string without building a map of all of them. */
final class QueryString {

    private QueryString() {
    }

    /** Returns the decoded value of the first {@code name} parameter, "" for a bare key, or null. */
    static String parameter(String query, String name) {
        if (query == null || query.isEmpty()) {
            return null;
        }
        int start = 0;
        while (start <= query.length()) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = query.length();
            }
            int eq = query.indexOf('=', start);
            int keyEnd = eq >= 0 && eq < end ? eq : end;
            if (decode(query.substring(start, keyEnd)).equals(name)) {
                return keyEnd == end ? "" : decode(query.substring(keyEnd + 1, end));
            }
            start = end + 1;
        }
        return null;
    }

    private static String decode(String s) {
        if (s.indexOf('%') < 0 && s.indexOf('+') < 0) {
            return s;
        }
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformedEscape) {
            return s;
        }
    }
}
