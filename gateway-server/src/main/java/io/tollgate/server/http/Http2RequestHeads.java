package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http2.Http2Headers;

/**
 * What a request head needs to be well formed (RFC 9113 section 8.3.1): {@code :method}, and
 * unless it is CONNECT, a non-empty {@code :scheme} and {@code :path}. A malformed request is a
 * stream error PROTOCOL_ERROR; it is never forwarded.
 */
final class Http2RequestHeads {

    private Http2RequestHeads() {
    }

    static boolean complete(Http2Headers headers) {
        CharSequence method = headers.method();
        if (method == null) {
            return false;
        }
        if (HttpMethod.CONNECT.asciiName().contentEquals(method)) {
            return true;
        }
        CharSequence scheme = headers.scheme();
        CharSequence path = headers.path();
        return scheme != null && scheme.length() > 0 && path != null && path.length() > 0;
    }
}
