package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.tollgate.protocols.http1.HopByHopHeaders;
import io.tollgate.protocols.http2.Http2ExtensionHeaders;
import io.tollgate.router.route.Route;

/**
 * Turns a downstream request head into the head sent upstream, in place: origin-form target
 * with the route's rewrite, HTTP/1.1, hop-by-hop and HTTP/2 conversion headers removed,
 * forwarding headers added. (The route's own header changes are the {@code headers} stream
 * filter's, which ran before.)
 *
 * <p>For an HTTP/2 upstream, {@code te: trailers} survives when the client sent it (gRPC needs
 * it), and the target is made absolute-form: Netty's conversion derives {@code :authority} from
 * the Host header only for an absolute-form target, and would otherwise drop the Host.
 */
final class ForwardedRequest {

    static final String X_FORWARDED_FOR = "x-forwarded-for";
    static final String X_FORWARDED_PROTO = "x-forwarded-proto";
    static final String X_REQUEST_ID = "x-request-id";

    private ForwardedRequest() {
    }

    /**
     * Adds what the gateway tells the upstream about the request: the client's address to
     * {@code x-forwarded-for}, {@code x-forwarded-proto}, and an {@code x-request-id} when the
     * client sent none. A request with stream filters gets them before its filters run, as
     * Envoy's connection manager adds them before its filters, so that filters see them and may
     * change them; any other request when it is prepared.
     *
     * @param clientIp the client's address, or null when its connection has none: then
     *     {@code x-forwarded-for} is passed on as it came
     */
    static void addForwardingHeaders(HttpHeaders headers, String clientIp, String scheme) {
        if (clientIp != null) {
            String forwardedFor = headers.get(X_FORWARDED_FOR);
            headers.set(X_FORWARDED_FOR, forwardedFor == null ? clientIp : forwardedFor + ", " + clientIp);
        }
        headers.set(X_FORWARDED_PROTO, scheme);
        if (!headers.contains(X_REQUEST_ID)) {
            headers.set(X_REQUEST_ID, RequestIds.next());
        }
    }

    /**
     * @param clientIp the client's address for {@code x-forwarded-for}, or null when its connection
     *     has none (as {@code ClientAddresses.ip} allows): then the header is passed on as it came
     * @param scheme the scheme the client used, for {@code x-forwarded-proto}
     * @param forwardingHeadersAdded whether {@link #addForwardingHeaders} ran already
     * @return the target sent upstream, in origin form
     */
    static String prepare(HttpRequest request, HttpRouteRequest view, Route route, String clientIp, String scheme,
            boolean http2Upstream, boolean forwardingHeadersAdded) {
        HttpHeaders headers = request.headers();
        boolean trailers = headers.containsValue(HttpHeaderNames.TE, HttpHeaderValues.TRAILERS, true);
        HopByHopHeaders.strip(headers);
        Http2ExtensionHeaders.strip(headers);
        request.setProtocolVersion(HttpVersion.HTTP_1_1);
        String originForm = view.originForm(route.rewritePath(view.path()));
        request.setUri(originForm);
        String host = route.hostRewrite();
        if (host != null) {
            headers.set(HttpHeaderNames.HOST, host);
        } else if (!headers.contains(HttpHeaderNames.HOST) && view.hostHeader() != null) {
            headers.set(HttpHeaderNames.HOST, view.hostHeader());
        }
        if (!forwardingHeadersAdded) {
            addForwardingHeaders(headers, clientIp, scheme);
        }
        if (!http2Upstream) {
            return originForm;
        }
        if (trailers) {
            headers.set(HttpHeaderNames.TE, HttpHeaderValues.TRAILERS);
        }
        String authority = headers.get(HttpHeaderNames.HOST);
        if (authority != null) {
            request.setUri("http://" + authority + request.uri());
        }
        return originForm;
    }
}
