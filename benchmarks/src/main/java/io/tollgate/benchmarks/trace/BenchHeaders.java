package io.tollgate.benchmarks.trace;

import io.netty.handler.codec.http.HttpHeaders;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.protocols.rpc.RpcFrame;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Headers as the gateway gives them to filters, for the benchmark: Netty's HTTP headers changed in
 * place, or an RPC frame's headers read from the frame with changes collected for a rewrite.
 */
final class BenchHeaders implements FilterHeaders {

    private final HttpHeaders http;
    private final RpcFrame frame;
    final Map<String, String> changes = new LinkedHashMap<>();

    private BenchHeaders(HttpHeaders http, RpcFrame frame) {
        this.http = http;
        this.frame = frame;
    }

    static BenchHeaders http(HttpHeaders headers) {
        return new BenchHeaders(headers, null);
    }

    static BenchHeaders rpc(RpcFrame frame) {
        return new BenchHeaders(null, frame);
    }

    @Override
    public String get(String name) {
        if (http != null) {
            return http.get(name);
        }
        return changes.containsKey(name) ? changes.get(name) : frame.header(name);
    }

    @Override
    public List<String> getAll(String name) {
        String value = get(name);
        return value == null ? List.of() : List.of(value);
    }

    @Override
    public boolean writable() {
        return true;
    }

    @Override
    public void set(String name, String value) {
        if (http != null) {
            http.set(name, value);
        } else {
            changes.put(name, value);
        }
    }

    @Override
    public void add(String name, String value) {
        set(name, value);
    }

    @Override
    public void remove(String name) {
        set(name, null);
    }
}
