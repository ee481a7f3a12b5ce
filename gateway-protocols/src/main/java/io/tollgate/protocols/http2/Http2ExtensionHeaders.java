package io.tollgate.protocols.http2;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http2.HttpConversionUtil;

/**
 * Netty's HTTP/2 to HTTP/1 conversion carries stream facts in made-up headers
 * ({@code x-http2-stream-id}, {@code x-http2-scheme} ...). They describe one hop, so they MUST be
 * removed before a converted message is forwarded, or an HTTP/1.1 peer would receive them.
 */
public final class Http2ExtensionHeaders {

    private Http2ExtensionHeaders() {
    }

    /** Removes every conversion header from {@code headers}. */
    public static void strip(HttpHeaders headers) {
        for (HttpConversionUtil.ExtensionHeaderNames name : HttpConversionUtil.ExtensionHeaderNames.values()) {
            headers.remove(name.text());
        }
    }
}
