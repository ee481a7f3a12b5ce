package io.tollgate.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.tollgate.core.config.ListenerConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * {@code POST /services/call}: the console's "try it" form calls a service through one of the
 * gateway's own HTTP listeners, as any HTTP client would, so that the call takes the listener's
 * routes (the HTTP-to-RPC route action), filters, metrics and access log. The browser cannot do it
 * itself: the console's Content-Security-Policy lets it talk to the admin origin only. The call is
 * sent by the JDK's asynchronous HTTP client, never blocking the admin thread, and its answer
 * (status, body, time taken) is answered as JSON.
 */
final class ListenerCall {

    static final String PATH = "/services/call";
    /** How long the call may take, the route's own timeout aside. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    private final AdminContext context;
    private HttpClient client;

    ListenerCall(AdminContext context) {
        this.context = context;
    }

    /**
     * Sends {@code body} as {@code POST path} to the listener named by the {@code listener}
     * parameter, with the {@code types} parameter, if any, as its {@code x-rpc-types} header; 400
     * when the parameters name no plaintext HTTP/1.1 listener or no path.
     */
    CompletionStage<AdminResponse> call(Map<String, List<String>> params, String body) {
        String listenerName = first(params, "listener");
        String path = first(params, "path");
        if (listenerName == null || path == null || !path.startsWith("/")) {
            return refused("expected ?listener=NAME&path=/prefix/service/method and the arguments as the body");
        }
        ListenerInfo listener = context.listeners().stream().filter(l -> l.name().equals(listenerName))
                .findFirst().orElse(null);
        if (listener == null || !listener.protocols().contains("http1")) {
            return refused("listener: '" + listenerName + "' (expected an HTTP/1.1 listener of this gateway)");
        }
        ListenerConfig config = context.served().config().listeners().stream()
                .filter(l -> l.name().equals(listenerName)).findFirst().orElse(null);
        if (config != null && (config.tls().isPresent() || config.proxyProtocol().isPresent())) {
            return refused("listener: '" + listenerName + "' takes TLS or the PROXY protocol; calls are made in"
                    + " plaintext HTTP/1.1 only");
        }
        URI uri;
        try {
            uri = new URI("http://" + authority(listener) + path);
        } catch (URISyntaxException e) {
            return refused("path: " + e.getMessage());
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(TIMEOUT)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        String types = first(params, "types");
        if (types != null) {
            request.header("x-rpc-types", types);
        }
        long start = System.nanoTime();
        return client().sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
                .handle((response, failure) -> failure == null
                        ? answered(response, System.nanoTime() - start)
                        : failed(failure));
    }

    /** Where the admin thread reaches the listener: the loopback address when it binds every address. */
    private static String authority(ListenerInfo listener) {
        String address = listener.address();
        if (address.equals("0.0.0.0")) {
            address = "127.0.0.1";
        } else if (address.equals("::") || address.equals("[::]")) {
            address = "::1";
        }
        if (address.contains(":") && !address.startsWith("[")) {
            address = "[" + address + "]";
        }
        return address + ":" + listener.port();
    }

    private static AdminResponse answered(HttpResponse<String> response, long nanos) {
        ObjectNode json = AdminResponse.mapper().createObjectNode();
        json.put("status", response.statusCode());
        json.put("time_ms", Math.round(nanos / 1000.0) / 1000.0);
        json.put("content_type", response.headers().firstValue("content-type").orElse(null));
        json.put("body", response.body());
        return AdminResponse.json(json);
    }

    private static AdminResponse failed(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause instanceof HttpTimeoutException && !(cause instanceof HttpConnectTimeoutException)) {
            return AdminResponse.text(HttpResponseStatus.GATEWAY_TIMEOUT, "no answer from the listener within "
                    + TIMEOUT.toSeconds() + "s");
        }
        return AdminResponse.text(HttpResponseStatus.BAD_GATEWAY, "the call through the listener failed: " + cause);
    }

    private static CompletionStage<AdminResponse> refused(String why) {
        return CompletableFuture.completedFuture(AdminResponse.text(HttpResponseStatus.BAD_REQUEST, why));
    }

    private static String first(Map<String, List<String>> params, String name) {
        List<String> values = params.get(name);
        return values == null || values.isEmpty() || values.get(0).isBlank() ? null : values.get(0);
    }

    /** Made at the first call: a console nobody uses starts no client threads. Admin thread only. */
    private HttpClient client() {
        if (client == null) {
            client = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(CONNECT_TIMEOUT)
                    .build();
        }
        return client;
    }
}
