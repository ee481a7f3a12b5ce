package io.tollgate.benchmarks.filter;

import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.route.RouteRequest;
import java.util.Map;

/**
 * A request as a stream filter sees it, with fixed values and nothing behind it, so that a
 * benchmark measures the filter alone; it counts the answers filters give instead of sending them.
 */
final class BenchFilterContext extends BenchStreamContext implements RouteRequest {

    private final String clientAddress;
    private final String path;
    private final Map<String, String> headers;
    private final String service;
    private final String method;

    BenchFilterContext(String clientAddress, String path, Map<String, String> headers, String service, String method) {
        this.clientAddress = clientAddress;
        this.path = path;
        this.headers = headers;
        this.service = service;
        this.method = method;
    }

    @Override
    public String protocol() {
        return service == null ? "HTTP/1.1" : "bolt";
    }

    @Override
    public boolean rpc() {
        return service != null;
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public String service() {
        return service;
    }

    @Override
    public RouteRequest request() {
        return this;
    }

    @Override
    public FilterHeaders requestHeaders() {
        throw new UnsupportedOperationException("the built-in filters read headers through request()");
    }

    @Override
    public String clientAddress() {
        return clientAddress;
    }

    @Override
    public String sni() {
        return "api.example.com";
    }

    @Override
    public String routeName() {
        return "route";
    }

    @Override
    public String requestId() {
        return "1";
    }

    @Override
    public String authority() {
        return "api.example.com";
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String query() {
        return null;
    }

    @Override
    public String header(String name) {
        return headers.get(name);
    }

    /** The headers a typical API request carries, for the header conditions to look through. */
    static Map<String, String> typicalHeaders(String user) {
        return Map.of("user-agent", "bench/1.0", "accept", "application/json", "x-user", user,
                "x-request-id", "0af7651916cd43dd8448eb211c80319c");
    }
}
