package io.tollgate.filters.ratelimit;

import static io.tollgate.filters.FilterYaml.ENTRY;
import static io.tollgate.filters.FilterYaml.assertRejected;
import static io.tollgate.filters.FilterYaml.settings;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code rate_limit} entry as the loader reads it: Envoy's defaults, the actions, and errors naming the field. */
class RateLimitConfigTest {

    @Test
    void everyActionInOrderWithEnvoysDefaults() {
        RateLimitSettings s = settings("{ name: rate_limit, domain: edge, grpc_service: { target: \"127.0.0.1:8081\" },"
                + " rate_limits: [{ actions: [{ generic_key: { descriptor_value: api } },"
                + " { request_headers: { header_name: X-User, descriptor_key: user, skip_if_absent: true } },"
                + " { remote_address: {} }, { rpc_service: {} }, { rpc_method: { descriptor_key: m } }] }] }",
                RateLimitSettings.class);
        assertThat(s.domain()).isEqualTo("edge");
        assertThat(s.service().timeout()).isEqualTo(Duration.ofMillis(20));
        assertThat(s.failureModeDeny()).isFalse();
        assertThat(s.rateLimitedStatus()).isEqualTo(429);
        assertThat(s.rateLimitHeaders()).isFalse();
        assertThat(s.rateLimits()).containsExactly(List.of(
                new RateLimitAction.GenericKey("generic_key", "api"),
                new RateLimitAction.RequestHeader("x-user", "user", true),
                new RateLimitAction.RemoteAddress(),
                new RateLimitAction.RpcService("rpc_service"),
                new RateLimitAction.RpcMethod("m")));
    }

    @Test
    void badSettingsAreNamedByTheirPath() {
        String service = "grpc_service: { target: \"127.0.0.1:8081\" }";
        assertRejected("{ name: rate_limit, domain: edge, " + service + " }",
                ENTRY + ".rate_limits: required: at least one descriptor's actions");
        assertRejected("{ name: rate_limit, domain: edge, rate_limits: [{ actions: [{ remote_address: {} }] }] }",
                ENTRY + ".grpc_service: required");
        assertRejected("{ name: rate_limit, domain: edge, " + service + ", rate_limits: [{ actions: [] }] }",
                ENTRY + ".rate_limits[0].actions: required: at least one action");
        assertRejected("{ name: rate_limit, domain: edge, " + service
                        + ", rate_limits: [{ actions: [{ destination_cluster: {} }] }] }",
                ENTRY + ".rate_limits[0].actions[0].destination_cluster: unknown action (supported: generic_key,"
                        + " request_headers, remote_address, rpc_service, rpc_method)");
        assertRejected("{ name: rate_limit, domain: edge, " + service
                        + ", rate_limits: [{ actions: [{ remote_address: {}, generic_key: { descriptor_value: a } }] }] }",
                ENTRY + ".rate_limits[0].actions[0]: must name exactly one action of generic_key, request_headers,"
                        + " remote_address, rpc_service, rpc_method");
    }
}
