package io.tollgate.protocols.http1;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Removes the headers that describe one connection (RFC 9110 section 7.6.1) before a message is
 * forwarded on another, and decides keep-alive for HTTP/1.0 and HTTP/1.1 peers.
 *
 * <p>Removed: {@code Connection} and every field it names, {@code Keep-Alive},
 * {@code Proxy-Connection}, {@code TE} (an HTTP/1.1 upstream gets no {@code te: trailers} from us;
 * the HTTP/2 and gRPC path adds it itself) and {@code Upgrade}. Kept:
 * <ul>
 *   <li>{@code Transfer-Encoding} and {@code Content-Length}: Netty's encoder frames the forwarded
 *       body from them, so dropping {@code Transfer-Encoding: chunked} would send chunks without
 *       framing; the HTTP/2 codec removes it when converting. Neither is removed when
 *       {@code Connection} names it, nor is {@code Host}: naming a field in {@code Connection} is
 *       a known trick to make a proxy strip the framing or routing of a message.</li>
 *   <li>{@code Proxy-Authorization} and {@code Proxy-Authenticate}: the gateway is a reverse proxy
 *       and consumes no proxy credentials, so they belong to a proxy further on (as in Envoy).</li>
 * </ul>
 */
public final class HopByHopHeaders {

    private static final List<AsciiString> ALWAYS_REMOVED = List.of(
            HttpHeaderNames.CONNECTION,
            HttpHeaderNames.KEEP_ALIVE,
            HttpHeaderNames.PROXY_CONNECTION,
            HttpHeaderNames.TE,
            HttpHeaderNames.UPGRADE);

    private static final List<AsciiString> NEVER_REMOVED_BY_CONNECTION = List.of(
            HttpHeaderNames.CONTENT_LENGTH,
            HttpHeaderNames.TRANSFER_ENCODING,
            HttpHeaderNames.HOST);

    private HopByHopHeaders() {
    }

    /**
     * Removes the hop-by-hop fields from {@code headers}. Read {@link #wantsClose} first: it needs
     * the {@code Connection} field this removes. Most messages carry none but {@code Connection},
     * so one pass over the names decides whether anything needs looking up.
     */
    public static void strip(HttpHeaders headers) {
        requireNonNull(headers, "headers");
        boolean connection = false;
        boolean other = false;
        Iterator<Map.Entry<CharSequence, CharSequence>> fields = headers.iteratorCharSequence();
        while (fields.hasNext()) {
            CharSequence name = fields.next().getKey();
            if (isNamed(name, HttpHeaderNames.CONNECTION)) {
                connection = true;
            } else if (isAlwaysRemoved(name)) {
                other = true;
            }
        }
        if (connection) {
            removeNamedOptions(headers);
        }
        if (connection || other) {
            for (AsciiString name : ALWAYS_REMOVED) {
                headers.remove(name);
            }
        }
    }

    /**
     * Whether the sender of {@code message} asks to close the connection after it: HTTP/1.1 unless
     * {@code Connection: close}, HTTP/1.0 unless {@code Connection: keep-alive}.
     */
    public static boolean wantsClose(HttpMessage message) {
        requireNonNull(message, "message");
        return !HttpUtil.isKeepAlive(message);
    }

    /**
     * Sets the {@code Connection} field of a response to a client that spoke {@code clientVersion},
     * whatever version the response itself carries: an HTTP/1.0 client needs an explicit
     * {@code keep-alive}, an HTTP/1.1 client an explicit {@code close}.
     */
    public static void setKeepAlive(HttpResponse response, HttpVersion clientVersion, boolean keepAlive) {
        requireNonNull(response, "response");
        requireNonNull(clientVersion, "clientVersion");
        HttpHeaders headers = response.headers();
        if (!keepAlive) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (clientVersion.isKeepAliveDefault()) {
            headers.remove(HttpHeaderNames.CONNECTION);
        } else {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
    }

    /**
     * Removes the fields {@code Connection} names, except the protected ones and those removed
     * anyway; the common {@code Connection: keep-alive} allocates nothing.
     */
    private static void removeNamedOptions(HttpHeaders headers) {
        List<String> named = null;
        Iterator<? extends CharSequence> values = headers.valueCharSequenceIterator(HttpHeaderNames.CONNECTION);
        while (values.hasNext()) {
            CharSequence value = values.next();
            int start = 0;
            while (start <= value.length()) {
                int comma = indexOf(value, ',', start);
                CharSequence option = trim(value, start, comma);
                if (option.length() > 0 && !isAlwaysRemoved(option) && !isProtected(option)) {
                    if (named == null) {
                        named = new ArrayList<>(2);
                    }
                    named.add(option.toString());
                }
                start = comma + 1;
            }
        }
        if (named != null) {
            for (String name : named) {
                headers.remove(name);
            }
        }
    }

    private static int indexOf(CharSequence text, char c, int from) {
        for (int i = from; i < text.length(); i++) {
            if (text.charAt(i) == c) {
                return i;
            }
        }
        return text.length();
    }

    private static CharSequence trim(CharSequence text, int start, int end) {
        while (start < end && isBlank(text.charAt(start))) {
            start++;
        }
        while (end > start && isBlank(text.charAt(end - 1))) {
            end--;
        }
        return text.subSequence(start, end);
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }

    private static boolean isAlwaysRemoved(CharSequence name) {
        for (AsciiString removed : ALWAYS_REMOVED) {
            if (isNamed(name, removed)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isNamed(CharSequence name, AsciiString expected) {
        return name.length() == expected.length() && expected.contentEqualsIgnoreCase(name);
    }

    private static boolean isProtected(CharSequence name) {
        for (AsciiString protectedName : NEVER_REMOVED_BY_CONNECTION) {
            if (isNamed(name, protectedName)) {
                return true;
            }
        }
        return false;
    }
}
