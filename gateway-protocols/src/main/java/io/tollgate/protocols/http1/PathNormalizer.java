package io.tollgate.protocols.http1;

import io.netty.handler.codec.http.HttpRequest;
import io.tollgate.core.config.PathNormalization;
import io.tollgate.core.config.PathNormalization.EscapedSlashes;

/**
 * Rewrites a request's path as Envoy's HTTP connection manager does before routing, so that what
 * is routed is what the upstream reads: escaped slashes ({@code %2F}, {@code %5C}) kept, refused,
 * or unescaped; RFC 3986 section 6 normalization (percent-encoded unreserved characters decoded,
 * {@code \} read as {@code /}, dot segments removed, an encoded NUL refused); runs of slashes
 * merged. Hex digits keep their case, as in Envoy. The query is never touched.
 *
 * <p>It runs on a target {@link Http1RequestValidator} accepted. A path that needs nothing is not
 * copied: the scan that tells costs one pass over the path and allocates nothing.
 */
public final class PathNormalizer {

    /** What becomes of a request once its path is normalized. */
    public enum Verdict {
        /** Routed and forwarded, with its path normalized in place. */
        FORWARD,
        /** Answered 307 to its normalized target (an escaped slash with {@code UNESCAPE_AND_REDIRECT}). */
        REDIRECT,
        /** Answered 400: an escaped slash with {@code REJECT_REQUEST}, or a path that cannot be normalized. */
        REJECT
    }

    private final boolean normalize;
    private final boolean mergeSlashes;
    private final EscapedSlashes escapedSlashes;
    private final boolean unescape;

    private PathNormalizer(PathNormalization settings) {
        this.normalize = settings.normalize();
        this.mergeSlashes = settings.mergeSlashes();
        this.escapedSlashes = settings.escapedSlashes();
        this.unescape = escapedSlashes == EscapedSlashes.UNESCAPE_AND_FORWARD
                || escapedSlashes == EscapedSlashes.UNESCAPE_AND_REDIRECT;
    }

    /** The normalizer applying {@code settings}, or null when they leave paths as received. */
    public static PathNormalizer of(PathNormalization settings) {
        return settings.isOff() ? null : new PathNormalizer(settings);
    }

    /**
     * Normalizes {@code request}'s path in place ({@link HttpRequest#setUri}) and says what
     * becomes of the request; after {@link Verdict#REDIRECT} its target is the redirect's location.
     */
    public Verdict apply(HttpRequest request) {
        String target = request.uri();
        int start = pathStart(target);
        if (start < 0) {
            return Verdict.FORWARD;
        }
        int query = target.indexOf('?', start);
        int end = query < 0 ? target.length() : query;
        boolean escaped = escapedSlashes != EscapedSlashes.KEEP_UNCHANGED && hasEscapedSlash(target, start, end);
        if (escaped && escapedSlashes == EscapedSlashes.REJECT_REQUEST) {
            return Verdict.REJECT;
        }
        if (!escaped && !needsWork(target, start, end)) {
            return Verdict.FORWARD;
        }
        String path = normalized(target, start, end);
        if (path == null) {
            return Verdict.REJECT;
        }
        if (path.length() != end - start || !target.regionMatches(start, path, 0, path.length())) {
            request.setUri(target.substring(0, start) + path + target.substring(end));
        }
        return escaped && escapedSlashes == EscapedSlashes.UNESCAPE_AND_REDIRECT ? Verdict.REDIRECT : Verdict.FORWARD;
    }

    /** Where the path begins: 0 in origin form, after the authority in absolute form; -1 for {@code *}. */
    private static int pathStart(String target) {
        if (target.startsWith("/")) {
            return 0;
        }
        int scheme = target.indexOf("://");
        if (scheme < 0) {
            return -1;
        }
        int authorityStart = scheme + 3;
        int end = authorityStart;
        while (end < target.length() && target.charAt(end) != '/' && target.charAt(end) != '?') {
            end++;
        }
        return end;
    }

    private static boolean hasEscapedSlash(String s, int start, int end) {
        for (int i = start; i + 2 < end; i++) {
            if (s.charAt(i) == '%') {
                int decoded = decode(s, i);
                if (decoded == '/' || decoded == '\\') {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether normalizing the path may change it: false for every path already in normal form. */
    private boolean needsWork(String s, int start, int end) {
        for (int i = start; i < end; i++) {
            char c = s.charAt(i);
            if (c == '%' && normalize && i + 2 < end) {
                int decoded = decode(s, i);
                if (decoded == 0 || isUnreserved(decoded)) {
                    return true;
                }
            } else if (c == '\\' && normalize) {
                return true;
            } else if (c == '/' && i + 1 < end) {
                char next = s.charAt(i + 1);
                if (next == '/' && mergeSlashes || next == '.' && normalize && isDotSegment(s, i + 1, end)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the segment starting at {@code at} is {@code .} or {@code ..}. */
    private static boolean isDotSegment(String s, int at, int end) {
        int length = 0;
        while (at + length < end && s.charAt(at + length) != '/') {
            if (s.charAt(at + length) != '.' || ++length > 2) {
                return false;
            }
        }
        return length > 0;
    }

    private String normalized(String s, int start, int end) {
        StringBuilder path = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            char c = s.charAt(i);
            int decoded = c == '%' && i + 2 < end ? decode(s, i) : -1;
            if (decoded < 0) {
                path.append(c == '\\' && normalize ? '/' : c);
                continue;
            }
            if (decoded == 0 && normalize) {
                return null;
            }
            if (unescape && (decoded == '/' || decoded == '\\')) {
                path.append(decoded == '\\' && normalize ? '/' : (char) decoded);
            } else if (normalize && isUnreserved(decoded)) {
                path.append((char) decoded);
            } else {
                path.append(s, i, i + 3);
            }
            i += 2;
        }
        String result = normalize ? withoutDotSegments(path) : path.toString();
        return mergeSlashes ? merged(result) : result;
    }

    /** RFC 3986 section 5.2.4 on a path that begins with {@code /}; one that does not is returned as is. */
    private static String withoutDotSegments(CharSequence path) {
        int end = path.length();
        if (end == 0 || path.charAt(0) != '/') {
            return path.toString();
        }
        StringBuilder out = new StringBuilder(end);
        int i = 0;
        while (i < end) {
            int next = i + 1;
            while (next < end && path.charAt(next) != '/') {
                next++;
            }
            int length = next - i - 1;
            boolean dot = length == 1 && path.charAt(i + 1) == '.';
            boolean dotDot = length == 2 && path.charAt(i + 1) == '.' && path.charAt(i + 2) == '.';
            if (dotDot) {
                int last = out.lastIndexOf("/");
                out.setLength(Math.max(last, 0));
            }
            if (dot || dotDot) {
                if (next == end) {
                    out.append('/');
                }
            } else {
                out.append(path, i, next);
            }
            i = next;
        }
        return out.length() == 0 ? "/" : out.toString();
    }

    private static String merged(String path) {
        if (!path.contains("//")) {
            return path;
        }
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c != '/' || out.length() == 0 || out.charAt(out.length() - 1) != '/') {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** The octet the escape at {@code at} encodes, or -1 when it is no valid escape. */
    private static int decode(String s, int at) {
        int high = hex(s.charAt(at + 1));
        int low = hex(s.charAt(at + 2));
        return high < 0 || low < 0 ? -1 : high << 4 | low;
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
            return (c | 0x20) - 'a' + 10;
        }
        return -1;
    }

    /** RFC 3986 section 2.3: ALPHA, DIGIT, {@code -._~}. */
    private static boolean isUnreserved(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || c == '-' || c == '.' || c == '_' || c == '~';
    }
}
