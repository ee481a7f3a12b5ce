package io.tollgate.protocols.http2;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http2.HttpConversionUtil;
import io.netty.util.AsciiString;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Netty's HTTP/2 to HTTP/1 conversion carries stream facts in made-up headers
 * ({@code x-http2-stream-id}, {@code x-http2-scheme} ...). They describe one hop, so they MUST be
 * removed before a converted message is forwarded, or an HTTP/1.1 peer would receive them.
 */
public final class Http2ExtensionHeaders {

    private Http2ExtensionHeaders() {
    }

    private static final List<AsciiString> NAMES = Stream.of(HttpConversionUtil.ExtensionHeaderNames.values())
            .map(HttpConversionUtil.ExtensionHeaderNames::text)
            .toList();

    /**
     * Removes every conversion header from {@code headers}; one pass over the names first, since
     * most messages (every one from an HTTP/1 peer) carry none.
     */
    public static void strip(HttpHeaders headers) {
        if (!hasExtensionHeader(headers)) {
            return;
        }
        for (AsciiString name : NAMES) {
            headers.remove(name);
        }
    }

    private static boolean hasExtensionHeader(HttpHeaders headers) {
        Iterator<Map.Entry<CharSequence, CharSequence>> fields = headers.iteratorCharSequence();
        while (fields.hasNext()) {
            CharSequence name = fields.next().getKey();
            for (AsciiString extension : NAMES) {
                if (name.length() == extension.length() && extension.contentEqualsIgnoreCase(name)) {
                    return true;
                }
            }
        }
        return false;
    }
}
