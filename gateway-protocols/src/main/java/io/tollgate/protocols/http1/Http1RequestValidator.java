package io.tollgate.protocols.http1;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.AsciiString;
import java.util.Iterator;
import java.util.Map;

/**
 * Refuses HTTP/1.x requests whose framing or routing a backend could read differently from us: the
 * request-smuggling defences of RFC 9112 section 6.3 and the header and target rules around them.
 *
 * <p>Call {@link #fromDecoderFailure} on every decoded object and {@link #validate} on every
 * request head before anything else reads it; answer a rejection with its status and
 * {@code Connection: close}, then close the connection, since the rest of the stream can no longer
 * be framed. Every violation is answered 400 ({@code Transfer-Encoding} with another coding than
 * a single {@code chunked} included: RFC 9112 allows 501 for an unknown coding, but one status for
 * every framing problem is simpler to count and to test), 414 and 431 for heads over the decoder
 * limits, 505 for versions other than HTTP/1.0 and HTTP/1.1.
 *
 * <p>Deliberately stricter than RFC 9112 (and than Netty): a repeated {@code Content-Length} is
 * refused even with equal values; {@code Transfer-Encoding} must be exactly one lower-case
 * {@code chunked} (a backend that compares case-sensitively would otherwise frame differently);
 * HTTP/1.1 needs exactly one non-empty Host. What the validator cannot see on a decoded request
 * (obs-fold, request-line whitespace, a second HTTP/1.0 Content-Length that Netty dropped) is refused by the decoders built
 * by {@link Http1Decoders}.
 */
public final class Http1RequestValidator {

    private Http1RequestValidator() {
    }

    /**
     * Maps a failed decoding to a rejection: 431 for a header block over the limit, 414 for a request
     * line over the limit, 400 for anything else; null when {@code msg} decoded fine.
     */
    public static Rejection fromDecoderFailure(HttpObject msg) {
        requireNonNull(msg, "msg");
        DecoderResult result = msg.decoderResult();
        if (!result.isFailure()) {
            return null;
        }
        Throwable cause = result.cause();
        String reason = "undecodable request: " + cause.getMessage();
        if (cause instanceof TooLongHttpHeaderException) {
            return new Rejection(431, reason);
        }
        if (cause instanceof TooLongHttpLineException && msg instanceof HttpMessage) {
            return new Rejection(414, reason);
        }
        return Rejection.badRequest(reason);
    }

    /** Returns why {@code request} must be refused, or null when it may be forwarded. */
    public static Rejection validate(HttpRequest request) {
        requireNonNull(request, "request");
        Rejection failure = fromDecoderFailure(request);
        if (failure != null) {
            return failure;
        }
        HttpVersion version = request.protocolVersion();
        if (version != HttpVersion.HTTP_1_1 && version != HttpVersion.HTTP_1_0) {
            return new Rejection(505, "version " + version + " (expected: HTTP/1.1 or HTTP/1.0)");
        }
        Fields fields = new Fields();
        String problem = fields.read(request.headers());
        if (problem == null) {
            problem = fields.framingProblem();
        }
        if (problem == null) {
            problem = fields.hostProblem(version);
        }
        if (problem == null) {
            problem = RequestTarget.problem(request.method().name(), request.uri());
        }
        return problem == null ? null : Rejection.badRequest(problem);
    }

    /**
     * What one pass over the header fields learns: whether every field is well formed, and how
     * often (and with which first value) the framing and Host fields occur.
     */
    private static final class Fields {

        private int lengths;
        private CharSequence length;
        private int codings;
        private CharSequence coding;
        private int hosts;
        private CharSequence host;

        /** Reads every field; returns the first malformed one's problem, or null. */
        String read(HttpHeaders headers) {
            Iterator<Map.Entry<CharSequence, CharSequence>> it = headers.iteratorCharSequence();
            while (it.hasNext()) {
                Map.Entry<CharSequence, CharSequence> field = it.next();
                CharSequence name = field.getKey();
                CharSequence value = field.getValue();
                if (!isToken(name)) {
                    return "field name is not a token";
                }
                if (hasControlOctet(value)) {
                    return "control octet in the value of " + name;
                }
                count(name, value);
            }
            return null;
        }

        private void count(CharSequence name, CharSequence value) {
            if (is(name, HttpHeaderNames.CONTENT_LENGTH)) {
                length = lengths++ == 0 ? value : length;
            } else if (is(name, HttpHeaderNames.TRANSFER_ENCODING)) {
                coding = codings++ == 0 ? value : coding;
            } else if (is(name, HttpHeaderNames.HOST)) {
                host = hosts++ == 0 ? value : host;
            }
        }

        String framingProblem() {
            if (lengths > 0 && codings > 0) {
                return "both Content-Length and Transfer-Encoding";
            }
            if (lengths > 1) {
                return "Content-Length repeated " + lengths + " times (expected: once)";
            }
            if (lengths == 1 && !isDecimalLength(length)) {
                return "Content-Length is not a non-negative decimal number";
            }
            if (codings > 1 || codings == 1 && !HttpHeaderValues.CHUNKED.contentEquals(coding)) {
                return "Transfer-Encoding " + (codings > 1 ? "repeated " + codings + " times" : "'" + coding + "'")
                        + " (expected: exactly one 'chunked')";
            }
            return null;
        }

        String hostProblem(HttpVersion version) {
            if (hosts > 1) {
                return "Host repeated " + hosts + " times (expected: once)";
            }
            if (hosts == 0) {
                return version == HttpVersion.HTTP_1_1 ? "HTTP/1.1 request without Host" : null;
            }
            return RequestTarget.isAuthority(host) ? null : "Host is not a host[:port]";
        }

        private static boolean is(CharSequence name, AsciiString expected) {
            return name.length() == expected.length() && expected.contentEqualsIgnoreCase(name);
        }
    }

    private static boolean isDecimalLength(CharSequence value) {
        if (value.isEmpty() || value.length() > 18) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static boolean isToken(CharSequence name) {
        if (name.length() == 0) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (!Tokens.isTchar(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasControlOctet(CharSequence value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7f) {
                return true;
            }
        }
        return false;
    }
}
