package io.tollgate.benchmarks.lb;

import io.tollgate.core.route.RouteRequest;
import java.util.Map;

/** A request to {@code /} that carries only the given headers: what the balancer benchmarks route by. */
public record HeaderRequest(Map<String, String> headers) implements RouteRequest {

    @Override
    public String authority() {
        return "svc";
    }

    @Override
    public String path() {
        return "/";
    }

    @Override
    public String query() {
        return null;
    }

    @Override
    public String header(String name) {
        return headers.get(name);
    }
}
