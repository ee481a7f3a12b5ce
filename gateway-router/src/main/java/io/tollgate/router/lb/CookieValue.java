package io.tollgate.router.lb;

/**
 * Finds one cookie's value in a {@code Cookie} header ({@code a=1; b=2}) by index, so that the
 * value can be hashed where it lies instead of being cut out as a new String.
 */
final class CookieValue {

    private CookieValue() {
    }

    /** The index where the value of cookie {@code name} starts in {@code header}, or -1 when absent. */
    static int start(String header, String name) {
        int length = header.length();
        int at = 0;
        while (at < length) {
            while (at < length && (header.charAt(at) == ' ' || header.charAt(at) == ';')) {
                at++;
            }
            if (header.startsWith(name, at) && at + name.length() < length && header.charAt(at + name.length()) == '=') {
                return at + name.length() + 1;
            }
            int next = header.indexOf(';', at);
            if (next < 0) {
                return -1;
            }
            at = next;
        }
        return -1;
    }

    /** The index just past the value that starts at {@code start}. */
    static int end(String header, int start) {
        int semicolon = header.indexOf(';', start);
        int end = semicolon < 0 ? header.length() : semicolon;
        while (end > start && header.charAt(end - 1) == ' ') {
            end--;
        }
        return end;
    }
}
