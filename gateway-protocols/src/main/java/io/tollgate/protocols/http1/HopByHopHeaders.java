package io.tollgate.protocols.http1;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;

/** Removes hop-by-hop headers (RFC 9110 7.6.1) before a message crosses the proxy. */
public final class HopByHopHeaders {

    private HopByHopHeaders() {
    }

    /** Strips Connection, the headers it names, and the fixed hop-by-hop set. */
    public static void strip(HttpHeaders headers) {
        for (String connection : headers.getAll(HttpHeaderNames.CONNECTION)) {
            for (String token : connection.split(",")) {
                headers.remove(token.trim());
            }
        }
        headers.remove(HttpHeaderNames.CONNECTION);
        headers.remove(HttpHeaderNames.KEEP_ALIVE);
        headers.remove(HttpHeaderNames.PROXY_CONNECTION);
        headers.remove(HttpHeaderNames.TE);
        headers.remove(HttpHeaderNames.UPGRADE);
    }
}
