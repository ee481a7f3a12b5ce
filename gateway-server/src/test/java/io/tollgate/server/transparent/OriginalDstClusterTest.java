package io.tollgate.server.transparent;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An {@code original_dst} cluster behind listeners that are not redirected to: a connection that
 * reached the listener's own address has no original destination and is refused with a counter,
 * never sent back to the gateway; with {@code use_http_header}, a request naming an IP address and
 * port goes there, and one naming anything else is refused. Runs anywhere (no namespace needed).
 */
class OriginalDstClusterTest {

    private static final String NOT_REDIRECTED = "tollgate.upstream.original_dst.not_redirected";

    private static HttpUpstream upstream;
    private static TestGateway gateway;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws Exception {
        upstream = new HttpUpstream("destination").answer("/", () -> 200);
        gateway = TestGateway.start("""
                event_loops: 1
                listeners:
                  - name: tcp
                    protocols: [tcp]
                    network_filters:
                      - { name: tcp_proxy, cluster: passthrough }
                  - name: http
                    protocols: [http1]
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - { match: { prefix: /header }, route: { cluster: by_header, timeout: 5s } }
                            - { match: { prefix: / }, route: { cluster: passthrough, timeout: 5s } }
                clusters:
                  - name: passthrough
                    type: original_dst
                    connect_timeout: 2s
                  - name: by_header
                    type: original_dst
                    original_dst: { use_http_header: true, max_hosts: 4, host_idle_timeout: 10s }
                """, Map.of());
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    /** A counter of the original_dst cluster: the router counts, the registry reads it (a function counter). */
    private static double counted(String name, String... tags) {
        return gateway.gateway().metrics().registry().find(name).tags(tags).functionCounters().stream()
                .mapToDouble(FunctionCounter::count).sum();
    }

    @Test
    void aTcpConnectionToTheListenerItselfIsClosedAndCountedNotLoopedBack() throws Exception {
        double before = counted(NOT_REDIRECTED, "cluster", "passthrough");
        try (Socket socket = new Socket("127.0.0.1", gateway.port("tcp"))) {
            socket.setSoTimeout(5_000);
            assertThat(socket.getInputStream().read()).as("closed without a byte").isEqualTo(-1);
        }
        Await.until("the refusal counted", Duration.ofSeconds(5),
                () -> counted(NOT_REDIRECTED, "cluster", "passthrough") == before + 1);
        assertThat(counted("tollgate.upstream.original_dst.hosts_made", "cluster", "passthrough")).isZero();
    }

    @Test
    void anHttpRequestToTheListenerItselfIsAnswered503AndCounted() throws Exception {
        double before = counted(NOT_REDIRECTED, "cluster", "passthrough");
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(gateway.uri("http", "/loop")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(counted(NOT_REDIRECTED, "cluster", "passthrough")).isEqualTo(before + 1);
    }

    @Test
    void aRequestNamingAnAddressInTheHeaderGoesThere() throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(gateway.uri("http", "/header"))
                .header("x-envoy-original-dst-host", "127.0.0.1:" + upstream.port()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(counted("tollgate.upstream.original_dst.hosts_made", "cluster", "by_header")).isEqualTo(1);
    }

    @Test
    void aHeaderNamingAHostNameIsRefusedNotResolved() throws Exception {
        double before = counted("tollgate.upstream.original_dst.bad_header", "cluster", "by_header");
        for (String bad : new String[] {"localhost:" + upstream.port(), "127.0.0.1", "127.0.0.1:0", "[::1:80"}) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(gateway.uri("http", "/header"))
                    .header("x-envoy-original-dst-host", bad).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(bad).isEqualTo(503);
        }
        assertThat(counted("tollgate.upstream.original_dst.bad_header", "cluster", "by_header"))
                .isEqualTo(before + 4);
    }

    @Test
    void aRequestWithoutTheHeaderOnAListenerNotRedirectedToIsRefused() throws Exception {
        double before = counted(NOT_REDIRECTED, "cluster", "by_header");
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.port("http") + "/header")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(counted(NOT_REDIRECTED, "cluster", "by_header")).isEqualTo(before + 1);
    }
}
