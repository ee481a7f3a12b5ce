package io.tollgate.server.rpc;

import static java.util.Objects.requireNonNull;

import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.protocols.rpc.RpcFrame;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An RPC request's headers (Bolt's header map, Dubbo's attachments) as filters see them. Where the
 * frame's codec can rewrite them ({@link RpcFrame#headersRewritable()}), changes are collected
 * here, one value per key, and the frame is rewritten once when the chain lets the call through;
 * elsewhere the frame passes untouched and the headers cannot be changed.
 */
final class RpcFilterHeaders implements FilterHeaders {

    /** The headers of a response, which filters see no header of. */
    static final RpcFilterHeaders NONE = new RpcFilterHeaders(null, false);

    private final RouteRequest request;
    private final boolean writable;
    private Map<String, String> changes;

    /**
     * @param request the routing view of the frame, whose {@code header} reads it
     * @param writable whether the frame can be rewritten with other headers
     */
    RpcFilterHeaders(RouteRequest request, boolean writable) {
        this.request = request;
        this.writable = writable;
    }

    @Override
    public String get(String name) {
        if (changes != null && changes.containsKey(name)) {
            return changes.get(name);
        }
        return request == null ? null : request.header(name);
    }

    @Override
    public List<String> getAll(String name) {
        String value = get(name);
        return value == null ? List.of() : List.of(value);
    }

    @Override
    public boolean writable() {
        return writable;
    }

    @Override
    public void set(String name, String value) {
        change(name, requireNonNull(value, "value"));
    }

    /** Sets {@code name} when it has no value: an RPC header holds one value per key. */
    @Override
    public void add(String name, String value) {
        if (get(name) != null) {
            throw new UnsupportedOperationException("RPC headers hold one value per key: '" + name + "' has one");
        }
        set(name, value);
    }

    @Override
    public void remove(String name) {
        change(name, null);
    }

    /** What filters changed, a null value for a removed key; null when nothing was. */
    Map<String, String> changes() {
        return changes;
    }

    private void change(String name, String value) {
        if (!writable) {
            throw new UnsupportedOperationException("this RPC frame's headers pass through unchanged (writable() is false)");
        }
        if (changes == null) {
            changes = new LinkedHashMap<>(4);
        }
        changes.put(requireNonNull(name, "name"), value);
    }
}
