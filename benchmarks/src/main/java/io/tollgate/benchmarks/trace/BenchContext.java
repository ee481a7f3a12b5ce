package io.tollgate.benchmarks.trace;

import io.tollgate.benchmarks.filter.BenchStreamContext;
import io.tollgate.core.filter.FilterHeaders;

/**
 * The least of a request a stream filter needs for the benchmark: its headers, and a place for the
 * trace and span ids; everything else is absent.
 */
final class BenchContext extends BenchStreamContext {

    private final FilterHeaders headers;
    private final boolean rpc;

    BenchContext(FilterHeaders headers, boolean rpc) {
        this.headers = headers;
        this.rpc = rpc;
    }

    @Override
    public String protocol() {
        return rpc ? "BOLT/1" : "HTTP/1.1";
    }

    @Override
    public boolean rpc() {
        return rpc;
    }

    @Override
    public FilterHeaders requestHeaders() {
        return headers;
    }
}
