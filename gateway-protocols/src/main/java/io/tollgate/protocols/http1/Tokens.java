package io.tollgate.protocols.http1;

/** The RFC 9110 character classes the HTTP/1.1 checks share. */
final class Tokens {

    private static final boolean[] TCHAR = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[Character.toUpperCase(c)] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    private Tokens() {
    }

    /** Whether {@code b}, an unsigned octet, may appear in a token (RFC 9110 section 5.6.2). */
    static boolean isTchar(int b) {
        return b < TCHAR.length && b >= 0 && TCHAR[b];
    }
}
