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
import java.util.List;

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
     * the {@code Connection} field this removes.
     */
    public static void strip(HttpHeaders headers) {
        requireNonNull(headers, "headers");
        for (String named : connectionOptions(headers)) {
            if (!isProtected(named)) {
                headers.remove(named);
            }
        }
        for (AsciiString name : ALWAYS_REMOVED) {
            headers.remove(name);
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

    private static List<String> connectionOptions(HttpHeaders headers) {
        List<String> options = new ArrayList<>();
        for (String value : headers.getAll(HttpHeaderNames.CONNECTION)) {
            for (String option : value.split(",")) {
                String trimmed = option.trim();
                if (!trimmed.isEmpty()) {
                    options.add(trimmed);
                }
            }
        }
        return options;
    }

    private static boolean isProtected(String name) {
        for (AsciiString protectedName : NEVER_REMOVED_BY_CONNECTION) {
            if (protectedName.contentEqualsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }
}
