package io.tollgate.protocols.http2;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.HttpConversionUtil;
import io.netty.util.AsciiString;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Turns the head (or the trailers) of an HTTP/1 response into HTTP/2 fields: {@code :status},
 * then every field with its name in lower case, less those that describe an HTTP/1 connection
 * (RFC 9113 section 8.2.2) and Netty's conversion headers.
 *
 * <p>Netty's {@code HttpConversionUtil.toHttp2Headers} does the same for requests and responses
 * alike; for a response it builds a map of the names {@code Connection} lists and looks each field
 * up in two maps. The proxy removes what {@code Connection} names before a response gets here
 * ({@code HopByHopHeaders}), so one pass over the names with a short list to compare against is
 * all a response needs.
 */
public final class Http2ResponseHeads {

    private static final List<AsciiString> NOT_FORWARDED = Stream.concat(
            Stream.of(HttpHeaderNames.CONNECTION, HttpHeaderNames.KEEP_ALIVE, HttpHeaderNames.PROXY_CONNECTION,
                    HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderNames.UPGRADE, HttpHeaderNames.TE,
                    HttpHeaderNames.HOST),
            Stream.of(HttpConversionUtil.ExtensionHeaderNames.values()).map(HttpConversionUtil.ExtensionHeaderNames::text))
            .toList();

    private Http2ResponseHeads() {
    }

    /** The HEADERS fields for {@code response}'s status and headers. */
    public static Http2Headers head(HttpResponse response) {
        requireNonNull(response, "response");
        HttpHeaders in = response.headers();
        Http2Headers out = new DefaultHttp2Headers(false, in.size() + 1);
        out.status(response.status().codeAsText());
        copy(in, out);
        return out;
    }

    /** The trailing HEADERS fields for {@code trailers}. */
    public static Http2Headers trailers(HttpHeaders trailers) {
        requireNonNull(trailers, "trailers");
        Http2Headers out = new DefaultHttp2Headers(false, trailers.size());
        copy(trailers, out);
        return out;
    }

    private static void copy(HttpHeaders in, Http2Headers out) {
        Iterator<Map.Entry<CharSequence, CharSequence>> fields = in.iteratorCharSequence();
        while (fields.hasNext()) {
            Map.Entry<CharSequence, CharSequence> field = fields.next();
            AsciiString name = AsciiString.of(field.getKey()).toLowerCase();
            if (!isNotForwarded(name)) {
                out.add(name, field.getValue());
            }
        }
    }

    private static boolean isNotForwarded(AsciiString name) {
        for (AsciiString dropped : NOT_FORWARDED) {
            if (name.length() == dropped.length() && dropped.contentEquals(name)) {
                return true;
            }
        }
        return false;
    }
}
