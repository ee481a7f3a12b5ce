package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.tollgate.core.route.RouteRequest;
import java.util.Locale;

/**
 * The routing view of an HTTP/1.x request head: authority from the Host header (or the
 * absolute-form target), lower case and without port; path and query split from the target.
 */
final class HttpRouteRequest implements RouteRequest {

    private final HttpRequest request;
    private final String clientAddress;
    private final String hostHeader;
    private final String authority;
    private final String path;
    private final String query;

    /** @param clientAddress the client's IP address as text, or null when unknown */
    HttpRouteRequest(HttpRequest request, String clientAddress) {
        this.clientAddress = clientAddress;
        this.request = request;
        String target = request.uri();
        String host = request.headers().get(HttpHeaderNames.HOST);
        int pathStart = 0;
        if (!target.startsWith("/") && target.contains("://")) {
            int authorityStart = target.indexOf("://") + 3;
            int authorityEnd = target.indexOf('/', authorityStart);
            int queryStart = target.indexOf('?', authorityStart);
            if (authorityEnd < 0 || (queryStart >= 0 && queryStart < authorityEnd)) {
                authorityEnd = queryStart >= 0 ? queryStart : target.length();
            }
            host = target.substring(authorityStart, authorityEnd);
            pathStart = authorityEnd;
        }
        this.hostHeader = host;
        this.authority = host == null ? null : stripPort(host).toLowerCase(Locale.ROOT);
        int q = target.indexOf('?', pathStart);
        String rawPath = q < 0 ? target.substring(pathStart) : target.substring(pathStart, q);
        this.path = rawPath.isEmpty() ? "/" : rawPath;
        this.query = q < 0 ? null : target.substring(q + 1);
    }

    private static String stripPort(String host) {
        int colon = host.lastIndexOf(':');
        if (colon < 0 || host.indexOf(']') > colon) {
            return host;
        }
        return host.substring(0, colon);
    }

    /** The Host as the client sent it (with port), or from the absolute-form target. */
    String hostHeader() {
        return hostHeader;
    }

    @Override
    public String authority() {
        return authority;
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String query() {
        return query;
    }

    @Override
    public String header(String name) {
        return request.headers().get(name);
    }

    /** The origin-form target to send upstream for a (possibly rewritten) path. */
    String originForm(String newPath) {
        return query == null ? newPath : newPath + "?" + query;
    }

    @Override
    public String clientAddress() {
        return clientAddress;
    }
}
