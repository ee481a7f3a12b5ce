package io.tollgate.server.http;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.protocols.http1.PathNormalizer;

/**
 * The listener's path normalization, applied to a request before it is routed (HTTP/1.1 and every
 * HTTP/2 stream alike): the request goes on with its path normalized, or is answered here as
 * Envoy answers it: 307 to the normalized target for an escaped slash under
 * {@code unescape_and_redirect} (gRPC, which cannot follow it, gets INTERNAL), 400 counted as
 * {@value #REASON} for a path refused. The connection carries on either way.
 */
final class PathAnswers {

    static final String REASON = "path_normalization_failed";

    private PathAnswers() {
    }

    /**
     * Normalizes {@code request}'s path with the listener's {@code paths}; returns whether the
     * request goes on to routing, or false when it was answered (and released) here.
     */
    static boolean forward(HttpProxy proxy, PathNormalizer paths, HttpDownstream downstream, HttpRequest request,
            String protocol) {
        PathNormalizer.Verdict verdict = paths.apply(request);
        if (verdict == PathNormalizer.Verdict.FORWARD) {
            return true;
        }
        boolean redirect = verdict == PathNormalizer.Verdict.REDIRECT && !downstream.isGrpc();
        FullHttpResponse response;
        if (redirect) {
            response = LocalResponses.empty(downstream.alloc(), HttpResponseStatus.TEMPORARY_REDIRECT);
            response.headers().set(HttpHeaderNames.LOCATION, request.uri());
        } else {
            proxy.listenerMetrics().error(REASON);
            response = downstream.error(HttpResponseStatus.BAD_REQUEST, REASON);
        }
        downstream.writeLocal(downstream.newRecord(request, protocol, null), request.protocolVersion(),
                HttpUtil.isKeepAlive(request), response, !redirect);
        ReferenceCountUtil.release(request);
        return false;
    }
}
