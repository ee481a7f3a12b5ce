package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Several filters of one kind in a listener's chain, as Istio writes its authorization (a DENY RBAC
 * filter, then an ALLOW one): each runs in order with its own settings; a route's override under a
 * name changes the filters of that name only, or all of them where they share it.
 */
class FiltersOfOneKindTest {

    private static final String CONFIG = "listeners:\n"
            + listener("named", "deny", "allow", "allow") + listener("shared", "authz", "authz", "authz") + """
            clusters:
              - name: app
                endpoints: [ { address: 127.0.0.1, port: ${APP} } ]
            """;

    /**
     * Listener {@code name}: a DENY rbac filter named {@code deny} (of mallory), then an ALLOW one
     * named {@code allow} (of the staff team); its route {@code /open} disables the filters named
     * {@code off}.
     */
    private static String listener(String name, String deny, String allow, String off) {
        return """
                  - name: %s
                    port: 0
                    filters:
                      - name: %s
                        kind: rbac
                        action: DENY
                        policies:
                          - name: mallory
                            permissions: [{ any: true }]
                            principals: [{ header: { name: x-user, exact: mallory } }]
                      - name: %s
                        kind: rbac
                        action: ALLOW
                        policies:
                          - name: staff
                            permissions: [{ any: true }]
                            principals: [{ header: { name: x-team, exact: staff } }]
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - name: open
                              match: { prefix: /open }
                              route: { cluster: app }
                              filters: { %s: { disabled: true } }
                            - name: app
                              match: { prefix: / }
                              route: { cluster: app }
                """.formatted(name, deny, allow, off);
    }

    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void eachRunsInOrderWithItsOwnSettings() throws Exception {
        try (HttpUpstream app = new HttpUpstream("app");
                TestGateway gateway = TestGateway.start(CONFIG, Map.of("APP", app.port()))) {
            for (String listener : new String[] {"named", "shared"}) {
                assertThat(status(gateway, listener, "/x", "bob", "staff")).as(listener + ": allowed").isEqualTo(200);
                assertThat(status(gateway, listener, "/x", "mallory", "staff")).as(listener + ": denied by the DENY filter")
                        .isEqualTo(403);
                assertThat(status(gateway, listener, "/x", "bob", "guests")).as(listener + ": not allowed by the ALLOW filter")
                        .isEqualTo(403);
            }
        }
    }

    @Test
    void aRoutesOverrideChangesTheFiltersOfItsName() throws Exception {
        try (HttpUpstream app = new HttpUpstream("app");
                TestGateway gateway = TestGateway.start(CONFIG, Map.of("APP", app.port()))) {
            assertThat(status(gateway, "named", "/open", "bob", "guests")).as("the ALLOW filter is off").isEqualTo(200);
            assertThat(status(gateway, "named", "/open", "mallory", "guests")).as("the DENY filter still runs")
                    .isEqualTo(403);
            assertThat(status(gateway, "shared", "/open", "mallory", "guests")).as("both share the name: both are off")
                    .isEqualTo(200);
        }
    }

    private int status(TestGateway gateway, String listener, String path, String user, String team) throws Exception {
        return client.send(HttpRequest.newBuilder(gateway.uri(listener, path)).header("x-user", user)
                .header("x-team", team).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
