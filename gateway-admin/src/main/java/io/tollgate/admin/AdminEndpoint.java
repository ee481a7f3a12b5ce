package io.tollgate.admin;

import io.netty.handler.codec.http.HttpMethod;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * One path of the admin API: the only method it answers, a line of help for the index page,
 * what it does with the query parameters and the request's body, and whether only a client on the
 * loopback interface may call it (even when the admin API is bound to another address).
 */
record AdminEndpoint(
        HttpMethod method,
        String path,
        String help,
        Handler handler,
        boolean loopbackOnly) {

    /**
     * What an endpoint does with a request: most answer at once; one that waits for something
     * else (a call through a listener) answers when that completes, never blocking the admin thread.
     */
    @FunctionalInterface
    interface Handler {
        CompletionStage<AdminResponse> apply(Map<String, List<String>> params, String body);
    }

    /** An endpoint that answers at once from the query parameters alone. */
    AdminEndpoint(HttpMethod method, String path, String help, Function<Map<String, List<String>>, AdminResponse> handler,
            boolean loopbackOnly) {
        this(method, path, help, (params, body) -> CompletableFuture.completedFuture(handler.apply(params)),
                loopbackOnly);
    }

    /** An endpoint any client that reaches the admin API may call, answering at once. */
    AdminEndpoint(HttpMethod method, String path, String help, Function<Map<String, List<String>>, AdminResponse> handler) {
        this(method, path, help, handler, false);
    }
}
