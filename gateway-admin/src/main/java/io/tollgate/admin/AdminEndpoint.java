package io.tollgate.admin;

import io.netty.handler.codec.http.HttpMethod;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One path of the admin API: the only method it answers, a line of help for the index page,
 * what it does with the query parameters, and whether only a client on the loopback interface
 * may call it (even when the admin API is bound to another address).
 */
record AdminEndpoint(
        HttpMethod method,
        String path,
        String help,
        Function<Map<String, List<String>>, AdminResponse> handler,
        boolean loopbackOnly) {

    /** An endpoint any client that reaches the admin API may call. */
    AdminEndpoint(HttpMethod method, String path, String help, Function<Map<String, List<String>>, AdminResponse> handler) {
        this(method, path, help, handler, false);
    }
}
