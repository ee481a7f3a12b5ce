package io.tollgate.server.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.rpc.DubboConsumer;
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

    /**
     * A gateway's configuration: registry {@code name} ({@code settings}, its other fields in flow
     * style), and a Dubbo listener that sends calls of group blue to cluster {@code blue} (the
     * providers of {@code ${INTERFACE}}, group blue, version 1.0) and every other call to
     * {@code plain} (those of no group or version), both found in that registry.
     */
    static String config(String name, String settings) {
        return """
                registries:
                  - { name: %s, %s, connection_timeout: 5s }
                listeners:
                  - name: dubbo
                    port: 0
                    protocols: [dubbo]
                    route_config:
                      virtual_hosts:
                        - name: echo
                          domains: ["${INTERFACE}"]
                          routes:
                            - match: { prefix: /, headers: [{ name: group, exact: blue }] }
                              route: { cluster: blue }
                            - match: { prefix: / }
                              route: { cluster: plain }
                clusters:
                  - name: plain
                    discovery: { registry: %s, dubbo: { interface: "${INTERFACE}" } }
                  - name: blue
                    discovery:
                      registry: %s
                      dubbo: { interface: "${INTERFACE}", group: blue, version: "1.0" }
                """.formatted(name, settings, name, name);
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
