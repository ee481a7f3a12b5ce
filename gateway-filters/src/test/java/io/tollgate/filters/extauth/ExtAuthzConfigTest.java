package io.tollgate.filters.extauth;

import static io.tollgate.filters.FilterYaml.ENTRY;
import static io.tollgate.filters.FilterYaml.assertRejected;
import static io.tollgate.filters.FilterYaml.settings;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The {@code ext_authz} entry as the loader reads it: Envoy's defaults, and errors naming the field. */
class ExtAuthzConfigTest {

    @Test
    void grpcServiceWithEnvoysDefaults() {
        ExtAuthzSettings s = settings("{ name: ext_authz, grpc_service: { target: \"127.0.0.1:9001\" } }",
                ExtAuthzSettings.class);
        assertThat(s.grpcService().target()).isEqualTo("127.0.0.1:9001");
        assertThat(s.grpcService().timeout()).isEqualTo(Duration.ofMillis(200));
        assertThat(s.failureModeAllow()).isFalse();
        assertThat(s.statusOnError()).isEqualTo(403);
        assertThat(s.allowedHeaders()).as("every header").isNull();
        assertThat(s.contextExtensions()).isEmpty();
    }

    @Test
    void httpServiceWithItsHeaderLists() {
        ExtAuthzSettings s = settings("{ name: ext_authz, failure_mode_allow: true, status_on_error: 503,"
                + " allowed_headers: [Authorization], context_extensions: { a: b },"
                + " http_service: { server_uri: \"http://127.0.0.1:9002\", path_prefix: /check, timeout: 1s,"
                + " allowed_upstream_headers: [X-User] } }", ExtAuthzSettings.class);
        assertThat(s.httpService().serverUri().getPort()).isEqualTo(9002);
        assertThat(s.httpService().pathPrefix()).isEqualTo("/check");
        assertThat(s.httpService().timeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.httpService().allowedUpstreamHeaders()).containsExactly("x-user");
        assertThat(s.httpService().allowedClientHeaders()).as("all").isNull();
        assertThat(s.allowedHeaders()).isEqualTo(Set.of("authorization"));
        assertThat(s.contextExtensions()).isEqualTo(Map.of("a", "b"));
        assertThat(s.statusOnError()).isEqualTo(503);
        assertThat(s.failureModeAllow()).isTrue();
    }

    @Test
    void badServicesAreNamedByTheirPath() {
        assertRejected("{ name: ext_authz }", ENTRY + ": must give exactly one of grpc_service, http_service");
        assertRejected("{ name: ext_authz, grpc_service: { target: a:1 }, http_service: { server_uri: \"http://a\" } }",
                ENTRY + ": must give exactly one of grpc_service, http_service");
        assertRejected("{ name: ext_authz, http_service: { server_uri: \"https://a:1\" } }",
                ENTRY + ".http_service.server_uri: 'https://a:1' (expected http://host:port without a query)");
        assertRejected("{ name: ext_authz, http_service: { server_uri: \"http://a:1\", path_prefix: check } }",
                ENTRY + ".http_service.path_prefix: 'check' (expected to start with / and not end with /)");
        assertRejected("{ name: ext_authz, grpc_service: { target: a:1, deadline: 1s } }",
                ENTRY + ".grpc_service.deadline: unknown field (expected one of [target, timeout])");
    }
}
