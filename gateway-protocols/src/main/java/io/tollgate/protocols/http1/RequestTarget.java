package io.tollgate.protocols.http1;

/**
 * Checks the request-target and Host forms of RFC 9112 section 3.2 and RFC 3986 octet by octet,
 * so that a proxy never routes on a target a backend would read differently.
 *
 * <p>Accepted: origin-form ({@code /path?query}), absolute-form with scheme {@code http} or
 * {@code https} and no userinfo, and asterisk-form for OPTIONS only. Refused: authority-form (the
 * gateway does not tunnel CONNECT), fragments, and every octet RFC 3986 does not allow in a path or
 * query (CTLs, space, non-ASCII, {@code "<>\^`{|}}); percent signs must start a valid escape.
 */
final class RequestTarget {

    private static final boolean[] PATH_OCTETS = octets("-._~!$&'()*+,;=:@/?");
    private static final boolean[] AUTHORITY_OCTETS = octets("-._~!$&'()*+,;=:[]");

    private RequestTarget() {
    }

    /** Returns why {@code target} is not acceptable for {@code method}, or null when it is. */
    static String problem(String method, String target) {
        if (target.equals("*")) {
            return method.equals("OPTIONS") ? null : "asterisk-form target with " + method + " (expected: OPTIONS)";
        }
        if (target.startsWith("/")) {
            return isPathAndQuery(target, 0) ? null : "invalid origin-form target";
        }
        int authorityStart = schemeEnd(target);
        if (authorityStart < 0) {
            return "request-target is neither origin-form nor absolute-form http(s)";
        }
        int authorityEnd = authorityStart;
        while (authorityEnd < target.length() && target.charAt(authorityEnd) != '/'
                && target.charAt(authorityEnd) != '?') {
            authorityEnd++;
        }
        if (!isAuthority(target, authorityStart, authorityEnd)) {
            return "invalid authority in absolute-form target";
        }
        return isPathAndQuery(target, authorityEnd) ? null : "invalid path in absolute-form target";
    }

    /** Whether {@code value} is a non-empty host[:port] without userinfo. */
    static boolean isAuthority(CharSequence value) {
        return isAuthority(value, 0, value.length());
    }

    private static int schemeEnd(String target) {
        for (String scheme : new String[] {"http://", "https://"}) {
            if (target.regionMatches(true, 0, scheme, 0, scheme.length())) {
                return scheme.length();
            }
        }
        return -1;
    }

    private static boolean isAuthority(CharSequence value, int start, int end) {
        if (start == end) {
            return false;
        }
        for (int i = start; i < end; i++) {
            if (!isAllowed(AUTHORITY_OCTETS, value, i, end)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isPathAndQuery(String target, int start) {
        int end = target.length();
        for (int i = start; i < end; i++) {
            if (!isAllowed(PATH_OCTETS, target, i, end)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAllowed(boolean[] allowed, CharSequence value, int index, int end) {
        char c = value.charAt(index);
        if (c == '%') {
            return index + 2 < end && isHex(value.charAt(index + 1)) && isHex(value.charAt(index + 2));
        }
        return c < allowed.length && allowed[c];
    }

    private static boolean isHex(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    private static boolean[] octets(String extra) {
        boolean[] allowed = new boolean[128];
        for (char c = '0'; c <= '9'; c++) {
            allowed[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            allowed[c] = true;
            allowed[Character.toUpperCase(c)] = true;
        }
        for (char c : extra.toCharArray()) {
            allowed[c] = true;
        }
        return allowed;
    }
}
