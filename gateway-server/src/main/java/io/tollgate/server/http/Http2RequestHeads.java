package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http2.Http2Headers;

/**
 * What a request head needs to be well formed (RFC 9113 sections 8.3.1 and 8.5): {@code :method},
 * and a non-empty {@code :scheme} and {@code :path}, or for CONNECT a non-empty {@code :authority}.
 * A malformed request is a stream error PROTOCOL_ERROR; it is never forwarded.
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
            CharSequence authority = headers.authority();
            return authority != null && authority.length() > 0;
        }
        CharSequence scheme = headers.scheme();
        CharSequence path = headers.path();
        return scheme != null && scheme.length() > 0 && path != null && path.length() > 0;
    }
}
