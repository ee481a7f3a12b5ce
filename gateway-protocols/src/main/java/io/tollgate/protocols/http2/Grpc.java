package io.tollgate.protocols.http2;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import java.util.concurrent.TimeUnit;

/**
 * What the gateway needs to know of gRPC over HTTP/2: which requests are gRPC, their
 * {@code grpc-timeout}, and the header names of a status. Bodies are never parsed.
 */
public final class Grpc {

    /** The header (or trailer) carrying the numeric status. */
    public static final AsciiString STATUS = AsciiString.cached("grpc-status");
    /** The header (or trailer) carrying the percent-encoded status message. */
    public static final AsciiString MESSAGE = AsciiString.cached("grpc-message");
    /** The client's deadline: up to 8 digits and a unit, e.g. {@code 100m}. */
    public static final AsciiString TIMEOUT = AsciiString.cached("grpc-timeout");
    /** The content type of every gRPC message, alone or with a suffix such as {@code +proto}. */
    public static final AsciiString CONTENT_TYPE = AsciiString.cached("application/grpc");

    private static final int MAX_TIMEOUT_DIGITS = 8;

    private Grpc() {
    }

    /** Whether the request or response with these headers is gRPC, by its content type. */
    public static boolean isGrpc(HttpHeaders headers) {
        String type = headers.get(HttpHeaderNames.CONTENT_TYPE);
        if (type == null || !type.regionMatches(true, 0, CONTENT_TYPE.toString(), 0, CONTENT_TYPE.length())) {
            return false;
        }
        if (type.length() == CONTENT_TYPE.length()) {
            return true;
        }
        char next = type.charAt(CONTENT_TYPE.length());
        return next == '+' || next == ';';
    }

    /**
     * The deadline in a {@code grpc-timeout} value, in nanoseconds, or -1 when the value is absent
     * or malformed (a malformed one is ignored, as gRPC servers do, leaving the route's timeout).
     */
    public static long timeoutNanos(String value) {
        if (value == null || value.length() < 2 || value.length() > MAX_TIMEOUT_DIGITS + 1) {
            return -1;
        }
        long amount = 0;
        for (int i = 0; i < value.length() - 1; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            amount = amount * 10 + (c - '0');
        }
        switch (value.charAt(value.length() - 1)) {
            case 'H':
                return TimeUnit.HOURS.toNanos(amount);
            case 'M':
                return TimeUnit.MINUTES.toNanos(amount);
            case 'S':
                return TimeUnit.SECONDS.toNanos(amount);
            case 'm':
                return TimeUnit.MILLISECONDS.toNanos(amount);
            case 'u':
                return TimeUnit.MICROSECONDS.toNanos(amount);
            case 'n':
                return amount;
            default:
                return -1;
        }
    }
}
