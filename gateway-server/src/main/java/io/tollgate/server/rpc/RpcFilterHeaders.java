package io.tollgate.server.rpc;

import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.route.RouteRequest;
import java.util.List;

/**
 * An RPC request's headers (Bolt's header map, Dubbo's attachments) as filters read them: the
 * frame passes through untouched, so they cannot be changed here.
 */
final class RpcFilterHeaders implements FilterHeaders {

    /** The headers of a response, which filters see no header of. */
    static final RpcFilterHeaders NONE = new RpcFilterHeaders(null);

    private final RouteRequest request;

    RpcFilterHeaders(RouteRequest request) {
        this.request = request;
    }

    @Override
    public String get(String name) {
        return request == null ? null : request.header(name);
    }

    @Override
    public List<String> getAll(String name) {
        String value = get(name);
        return value == null ? List.of() : List.of(value);
    }

    @Override
    public boolean writable() {
        return false;
    }

    @Override
    public void set(String name, String value) {
        throw readOnly();
    }

    @Override
    public void add(String name, String value) {
        throw readOnly();
    }

    @Override
    public void remove(String name) {
        throw readOnly();
    }

    private static UnsupportedOperationException readOnly() {
        return new UnsupportedOperationException("RPC frame headers pass through unchanged (writable() is false)");
    }
}
