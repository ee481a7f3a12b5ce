package io.tollgate.server.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.dubbo.DubboConsumer;
import io.tollgate.server.testing.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Set;

/** What the Dubbo discovery tests ask of the gateway: calls through it, and its admin API. */
final class DubboDiscoveryCalls {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private DubboDiscoveryCalls() {
    }

    /** The providers that answered {@code calls} calls of {@code tagged} (each answer names its provider before a ':'). */
    static Set<String> answering(DubboConsumer consumer, int calls) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < calls; i++) {
            String answer = consumer.service().tagged("x" + i);
            names.add(answer.substring(0, answer.indexOf(':')));
        }
        return names;
    }

    /** The body of the gateway's admin {@code path}, asserted answered 200. */
    static String admin(TestGateway gateway, String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.gateway().adminPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response.body();
    }
}
