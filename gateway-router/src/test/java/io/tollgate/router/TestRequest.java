package io.tollgate.router;

import io.tollgate.core.route.RouteRequest;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

/** A request for routing tests: an authority, a path, an optional query, a few headers and a client address. */
public final class TestRequest implements RouteRequest {

    private final String authority;
    private final String path;
    private final String query;
    private final Map<String, String> headers = new HashMap<>();
    private String clientAddress;
    private InetSocketAddress originalDestination;

    private TestRequest(String authority, String path, String query) {
        this.authority = authority;
        this.path = path;
        this.query = query;
    }

    /** A request for {@code pathAndQuery} (split at the first '?') to {@code authority}. */
    public static TestRequest of(String authority, String pathAndQuery) {
        int question = pathAndQuery.indexOf('?');
        return question < 0
                ? new TestRequest(authority, pathAndQuery, null)
                : new TestRequest(authority, pathAndQuery.substring(0, question), pathAndQuery.substring(question + 1));
    }

    /** Adds a header; {@code name} is lower case as {@link RouteRequest#header} requires. */
    public TestRequest header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    /** Sets the client's IP address as text. */
    public TestRequest clientAddress(String address) {
        this.clientAddress = address;
        return this;
    }

    /** Sets where the request's connection was sent before it was redirected. */
    public TestRequest originalDestination(InetSocketAddress destination) {
        this.originalDestination = destination;
        return this;
    }

    @Override
    public InetSocketAddress originalDestination() {
        return originalDestination;
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
        return headers.get(name);
    }

    @Override
    public String clientAddress() {
        return clientAddress;
    }

    @Override
    public String toString() {
        return authority + path + (query == null ? "" : "?" + query) + " " + headers;
    }
}
