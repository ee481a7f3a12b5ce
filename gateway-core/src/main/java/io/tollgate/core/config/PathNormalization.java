package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

/**
 * How a listener rewrites each HTTP request's path before it is routed, as Envoy's HTTP
 * connection manager does with {@code normalize_path}, {@code merge_slashes} and
 * {@code path_with_escaped_slashes_action}: what is routed is what goes upstream.
 *
 * @param normalize RFC 3986 section 6 normalization: percent-encoded unreserved characters
 *     decoded, dot segments removed
 * @param mergeSlashes runs of {@code /} in the path become one
 * @param escapedSlashes what a path holding {@code %2F} or {@code %5C} gets
 */
public record PathNormalization(boolean normalize, boolean mergeSlashes, EscapedSlashes escapedSlashes) {

    /** The paths routed and forwarded as received, the default. */
    public static final PathNormalization OFF = new PathNormalization(false, false, EscapedSlashes.KEEP_UNCHANGED);

    /** What a path with an escaped slash ({@code %2F}, {@code %5C}, either case) gets. */
    public enum EscapedSlashes {
        /** Routed and forwarded as received. */
        KEEP_UNCHANGED,
        /** Answered 400. */
        REJECT_REQUEST,
        /** Answered 307 with the path unescaped (and normalized) as its location; gRPC answered INTERNAL. */
        UNESCAPE_AND_REDIRECT,
        /** Unescaped (and normalized), then routed and forwarded. */
        UNESCAPE_AND_FORWARD
    }

    public PathNormalization {
        requireNonNull(escapedSlashes, "escapedSlashes");
    }

    /** Whether the path is left as received. */
    public boolean isOff() {
        return equals(OFF);
    }
}
