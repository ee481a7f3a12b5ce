package io.tollgate.protocols.http1;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;

/** Checks a decoded request head for request smuggling and malformed framing. */
public final class Http1RequestValidator {

    /** Why a request is refused and with which status. */
    public record Rejection(int status, String reason) {
    }

    private Http1RequestValidator() {
    }

    public static Rejection validate(HttpRequest request) {
        if (request.headers().contains(HttpHeaderNames.CONTENT_LENGTH)
                && request.headers().contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            return new Rejection(400, "content_length_and_transfer_encoding");
        }
        return null;
    }

    public static Rejection fromDecoderFailure(HttpObject msg) {
        Throwable cause = msg.decoderResult().cause();
        if (cause instanceof TooLongHttpHeaderException) {
            return new Rejection(431, "headers_too_large");
        }
        if (cause instanceof TooLongHttpLineException) {
            return new Rejection(414, "request_line_too_long");
        }
        return new Rejection(400, "malformed_request");
    }
}
