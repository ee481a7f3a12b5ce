package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpHeaders;
import io.tollgate.core.filter.FilterHeaders;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * An HTTP message's headers as filters see and change them. Public so that benchmarks run filters
 * on the very headers the gateway gives them.
 */
public final class HttpFilterHeaders implements FilterHeaders {

    private final HttpHeaders headers;

    public HttpFilterHeaders(HttpHeaders headers) {
        this.headers = headers;
    }

    @Override
    public String get(String name) {
        return headers.get(name);
    }

    @Override
    public List<String> getAll(String name) {
        return headers.getAll(name);
    }

    @Override
    public void forEach(BiConsumer<String, String> action) {
        for (Map.Entry<String, String> header : headers) {
            action.accept(header.getKey(), header.getValue());
        }
    }

    @Override
    public boolean writable() {
        return true;
    }

    @Override
    public void set(String name, String value) {
        headers.set(name, value);
    }

    @Override
    public void add(String name, String value) {
        headers.add(name, value);
    }

    @Override
    public void remove(String name) {
        headers.remove(name);
    }
}
