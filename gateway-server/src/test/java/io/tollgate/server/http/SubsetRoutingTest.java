package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Label subsets through the running proxy: by the route's metadata match and by request header. */
class SubsetRoutingTest {

    private static final String CONFIG = """
            listeners:
              - name: http
                port: 0
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - match: { prefix: /canary }
                          route: { cluster: svc, metadata_match: { version: v2 } }
                        - match: { prefix: / }
                          route: { cluster: svc }
            clusters:
              - name: svc
                subset_lb_config:
                  fallback_policy: ANY_ENDPOINT
                  header_prefix: x-subset-
                  subset_selectors: [ { keys: [version] } ]
                endpoints:
                  - { address: 127.0.0.1, port: ${A}, labels: { version: v1 } }
                  - { address: 127.0.0.1, port: ${B}, labels: { version: v1 } }
                  - { address: 127.0.0.1, port: ${C}, labels: { version: v2 } }
            """;

    private static HttpUpstream a;
    private static HttpUpstream b;
    private static HttpUpstream c;
    private static TestGateway gateway;
    private static final HttpClient client = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        a = new HttpUpstream("a");
        b = new HttpUpstream("b");
        c = new HttpUpstream("c");
        gateway = TestGateway.start(CONFIG, Map.of("A", a.port(), "B", b.port(), "C", c.port()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        a.close();
        b.close();
        c.close();
    }

    private Set<String> upstreamsServing(String path, String... headers) throws Exception {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri("http", path));
            if (headers.length > 0) {
                request.headers(headers);
            }
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            seen.add(response.headers().firstValue("x-upstream").orElseThrow());
        }
        return seen;
    }

    @Test
    void routeMetadataMatchSendsOnlyToTheMatchingSubset() throws Exception {
        assertThat(upstreamsServing("/canary")).containsExactly("c");
    }

    @Test
    void requestHeaderChoosesTheSubset() throws Exception {
        assertThat(upstreamsServing("/x", "x-subset-version", "v1")).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void withoutMetadataEveryHostServes() throws Exception {
        assertThat(upstreamsServing("/x")).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void unknownSubsetFallsBackToAnyEndpoint() throws Exception {
        assertThat(upstreamsServing("/x", "x-subset-version", "v9")).isNotEmpty();
    }
}
