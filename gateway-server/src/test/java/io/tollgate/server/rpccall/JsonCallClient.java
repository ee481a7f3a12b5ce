package io.tollgate.server.rpccall;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Calls RPC services through a gateway's {@code rpc_call} route with the JDK's HttpClient, over
 * HTTP/1.1 or h2c (the client upgrades its first connection), and reads the answers as
 * "status body".
 */
final class JsonCallClient {

    private final HttpClient client;
    private final String base;

    /** @param base {@code http://127.0.0.1:port/prefix} */
    JsonCallClient(String base, HttpClient.Version version) {
        this.base = base;
        this.client = HttpClient.newBuilder().version(version).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** {@code POST base/service/method?query} with {@code body} and header pairs. */
    HttpRequest request(String pathAndQuery, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .timeout(Duration.ofSeconds(90)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return request.build();
    }

    /** {@code GET base/path}. */
    HttpRequest get(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(90)).GET().build();
    }

    /** The answer as "status body". */
    String call(String pathAndQuery, String body, String... headers) throws IOException, InterruptedException {
        return text(client.send(request(pathAndQuery, body, headers), HttpResponse.BodyHandlers.ofString()));
    }

    /** The answer to {@code request}, sent without waiting. */
    CompletableFuture<HttpResponse<String>> send(HttpRequest request) {
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The whole answer, for checks on its headers and version. */
    HttpResponse<String> exchange(HttpRequest request) throws IOException, InterruptedException {
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    static String text(HttpResponse<String> response) {
        return response.statusCode() + " " + response.body();
    }
}
