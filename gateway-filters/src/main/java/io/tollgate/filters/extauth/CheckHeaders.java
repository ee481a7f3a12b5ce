package io.tollgate.filters.extauth;

import io.tollgate.core.filter.StreamFilterContext;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The request headers a check carries, one comma-joined value per lower-case name: every header
 * the protocol lists, or only the allowed ones; for a Bolt or Dubbo call also its service and
 * method under {@code service} and {@code method}, as MOSN carries them, unless the frame has
 * headers of those names.
 */
final class CheckHeaders {

    private CheckHeaders() {
    }

    /** The headers of {@code context}'s request that a check sends; {@code allowed} null for all. */
    static Map<String, String> of(StreamFilterContext context, Set<String> allowed) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (allowed == null) {
            context.requestHeaders().forEach((name, value) ->
                    headers.merge(name.toLowerCase(Locale.ROOT), value, (a, b) -> a + "," + b));
        } else {
            for (String name : allowed) {
                var values = context.requestHeaders().getAll(name);
                if (!values.isEmpty()) {
                    headers.put(name, String.join(",", values));
                }
            }
        }
        if (context.rpc()) {
            if (context.service() != null) {
                headers.putIfAbsent("service", context.service());
            }
            if (context.method() != null) {
                headers.putIfAbsent("method", context.method());
            }
        }
        return headers;
    }

    /** The method a check names: the HTTP method, or {@code POST} for an RPC call, as gRPC's. */
    static String method(StreamFilterContext context) {
        return context.rpc() || context.method() == null ? "POST" : context.method();
    }

    /** The path and query a check names ({@code /service/method} for an RPC call). */
    static String pathAndQuery(StreamFilterContext context) {
        String path = context.request().path();
        String query = context.request().query();
        return query == null || query.isEmpty() ? path : path + "?" + query;
    }
}
