package io.tollgate.server.http1;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.tollgate.protocols.http1.HopByHopHeaders;
import io.tollgate.router.route.Route;
import java.net.InetSocketAddress;

/**
 * Turns a downstream request head into the head sent upstream, in place: origin-form target
 * with the route's rewrite, HTTP/1.1, hop-by-hop headers removed, forwarding headers added, the
 * route's header mutation applied.
 */
final class ForwardedRequest {

    static final String X_FORWARDED_FOR = "x-forwarded-for";
    static final String X_FORWARDED_PROTO = "x-forwarded-proto";
    static final String X_REQUEST_ID = "x-request-id";

    private ForwardedRequest() {
    }

    static void prepare(HttpRequest request, Http1RouteRequest view, Route route, InetSocketAddress client) {
        HttpHeaders headers = request.headers();
        HopByHopHeaders.strip(headers);
        request.setProtocolVersion(HttpVersion.HTTP_1_1);
        request.setUri(view.originForm(route.rewritePath(view.path())));
        String host = route.hostRewrite();
        if (host != null) {
            headers.set(HttpHeaderNames.HOST, host);
        } else if (!headers.contains(HttpHeaderNames.HOST) && view.hostHeader() != null) {
            headers.set(HttpHeaderNames.HOST, view.hostHeader());
        }
        String clientIp = client.getAddress().getHostAddress();
        String forwardedFor = headers.get(X_FORWARDED_FOR);
        headers.set(X_FORWARDED_FOR, forwardedFor == null ? clientIp : forwardedFor + ", " + clientIp);
        headers.set(X_FORWARDED_PROTO, "http");
        if (!headers.contains(X_REQUEST_ID)) {
            headers.set(X_REQUEST_ID, RequestIds.next());
        }
        HeaderMutations.apply(route.requestHeaders(), headers);
    }
}
