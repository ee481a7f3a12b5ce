package io.tollgate.admin;

import io.netty.handler.codec.http.HttpMethod;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One path of the admin API: the only method it answers, a line of help for the index page, and
 * what it does with the query parameters.
 */
record AdminEndpoint(
        HttpMethod method,
        String path,
        String help,
        Function<Map<String, List<String>>, AdminResponse> handler) {
}
