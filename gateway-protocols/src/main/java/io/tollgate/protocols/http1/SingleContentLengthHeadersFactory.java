package io.tollgate.protocols.http1;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;

/**
 * Makes decoded headers refuse a second {@code Content-Length} field line, so that the decoder
 * fails the message instead of silently keeping the first value.
 *
 * <p>Netty 4.2 rejects several {@code Content-Length} lines in HTTP/1.1, but for HTTP/1.0 it keeps
 * the first value and drops the others ({@code HttpUtil.normalizeAndGetContentLength}); a front
 * proxy that honoured another value would then disagree with us about where the body ends. The
 * headers keep Netty's default name and value validation.
 */
final class SingleContentLengthHeadersFactory implements HttpHeadersFactory {

    static final SingleContentLengthHeadersFactory INSTANCE = new SingleContentLengthHeadersFactory();

    private static final DefaultHttpHeadersFactory DEFAULTS = DefaultHttpHeadersFactory.headersFactory();

    private SingleContentLengthHeadersFactory() {
    }

    @Override
    public HttpHeaders newHeaders() {
        return new SingleContentLengthHeaders();
    }

    @Override
    public HttpHeaders newEmptyHeaders() {
        return DEFAULTS.newEmptyHeaders();
    }

    /** Headers that throw on a second Content-Length, which the decoder turns into a failed message. */
    private static final class SingleContentLengthHeaders extends DefaultHttpHeaders {

        SingleContentLengthHeaders() {
            super(DEFAULTS.getNameValidator(), DEFAULTS.getValueValidator());
        }

        @Override
        public HttpHeaders add(String name, Object value) {
            return add((CharSequence) name, value);
        }

        @Override
        public HttpHeaders add(CharSequence name, Object value) {
            if (HttpHeaderNames.CONTENT_LENGTH.contentEqualsIgnoreCase(name)
                    && contains(HttpHeaderNames.CONTENT_LENGTH)) {
                throw new IllegalArgumentException(
                        "Content-Length: repeated field line (expected: exactly one)");
            }
            return super.add(name, value);
        }
    }
}
