package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alipay.sofa.rpc.core.exception.SofaRpcException;
import com.alipay.sofa.rpc.core.exception.SofaTimeOutException;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.tollgate.server.rpc.EchoService;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.http2.EchoGrpc;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code rate_limit} filter against a real grpc-java server of Envoy's RateLimitService (each
 * distinct descriptor allowed {@link RateLimitServer#LIMIT} hits) with real clients of every
 * protocol: the descriptors each action makes, requests within the limit passing unchanged, then
 * 429 with {@code x-envoy-ratelimited} and the {@code x-ratelimit-*} headers, RESOURCE_EXHAUSTED,
 * Bolt server busy and Dubbo thread pool exhausted; another client's descriptor still passing; a
 * request no descriptor applies to never asked about; a timeout passing under the default failure
 * mode and refused under {@code failure_mode_deny}.
 */
class RateLimitServiceFilterTest {

    private static final String CONFIG = """
            event_loops: 2
            listeners:
              - name: http
                protocols: [http1, h2c]
                filters:
                  - name: rate_limit
                    domain: edge
                    grpc_service: { target: "127.0.0.1:${RLS}", timeout: 10s }
                    enable_x_ratelimit_headers: true
                    rate_limits:
                      - actions:
                          - generic_key: { descriptor_value: api }
                          - request_headers: { header_name: x-user, descriptor_key: user }
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - name: hang
                          match: { prefix: /hang }
                          route: { cluster: http }
                          filters:
                            rate_limit:
                              domain: edge
                              grpc_service: { target: "127.0.0.1:${RLS}", timeout: 300ms }
                              rate_limits: [{ actions: [{ generic_key: { descriptor_key: hang, descriptor_value: x } }] }]
                        - name: hang-deny
                          match: { prefix: /deny-on-failure }
                          route: { cluster: http }
                          filters:
                            rate_limit:
                              domain: edge
                              grpc_service: { target: "127.0.0.1:${RLS}", timeout: 300ms }
                              failure_mode_deny: true
                              rate_limits: [{ actions: [{ generic_key: { descriptor_key: hang, descriptor_value: x } }] }]
                        - name: by-address
                          match: { prefix: /by-address }
                          route: { cluster: http }
                          filters:
                            rate_limit:
                              domain: edge
                              grpc_service: { target: "127.0.0.1:${RLS}", timeout: 10s }
                              rate_limits:
                                - actions: [{ remote_address: {} }, { request_headers: { header_name: ":path", descriptor_key: path } }]
                        - name: grpc
                          match: { prefix: /test.Echo/ }
                          route: { cluster: grpc }
                          filters:
                            rate_limit:
                              domain: edge
                              grpc_service: { target: "127.0.0.1:${RLS}", timeout: 10s }
                              rate_limits: [{ actions: [{ rpc_service: {} }, { rpc_method: {} }] }]
                        - { name: rest, match: { prefix: / }, route: { cluster: http } }
              - name: bolt
                protocols: [bolt]
                filters:
                  - name: rate_limit
                    domain: rpc
                    grpc_service: { target: "127.0.0.1:${RLS}", timeout: 10s }
                    rate_limits: [{ actions: [{ rpc_service: {} }, { rpc_method: { descriptor_key: method } }] }]
                route_config: { virtual_hosts: [{ name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: bolt } }] }] }
              - name: dubbo
                protocols: [dubbo]
                filters:
                  - name: rate_limit
                    domain: rpc
                    grpc_service: { target: "127.0.0.1:${RLS}", timeout: 10s }
                    rate_limits: [{ actions: [{ rpc_service: {} }, { rpc_method: { descriptor_key: method } }] }]
                route_config: { virtual_hosts: [{ name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: dubbo } }] }] }
            """ + EveryProtocol.CLUSTERS;
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static EveryProtocol upstreams;
    private static RateLimitServer rls;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstreams = new EveryProtocol();
        rls = new RateLimitServer();
        gateway = upstreams.gateway(CONFIG, Map.of("RLS", rls.port()));
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (upstreams != null) {
            upstreams.close();
        }
        if (rls != null) {
            rls.close();
        }
    }

    @BeforeEach
    void forgetEarlierRequests() {
        rls.requests.clear();
    }

    @Test
    void eachUserPassesUnchangedUpToTheServicesLimitThenGets429WithEnvoysHeaders() throws Exception {
        for (int i = 0; i < RateLimitServer.LIMIT; i++) {
            HttpResponse<String> passed = get("/api/" + i, "carol");
            assertThat(passed.statusCode()).isEqualTo(200);
            assertThat(passed.body()).contains("target: /api/" + i, "h-x-user: carol");
            assertThat(passed.headers().firstValue("x-envoy-ratelimited")).isEmpty();
        }
        RateLimitRequest asked = rls.nextRequest();
        assertThat(asked.getDomain()).isEqualTo("edge");
        assertThat(asked.getDescriptorsList()).containsExactly(descriptor("generic_key", "api", "user", "carol"));

        HttpResponse<String> limited = get("/api/3", "carol");
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("x-envoy-ratelimited")).hasValue("true");
        assertThat(limited.headers().firstValue("x-ratelimit-limit")).hasValue("2, 2;w=3600");
        assertThat(limited.headers().firstValue("x-ratelimit-remaining")).hasValue("0");
        assertThat(limited.headers().firstValue("x-ratelimit-reset")).hasValue("3600");
        assertThat(limited.headers().firstValue("x-tollgate-error")).hasValue("rate_limited");
        assertThat(limited.body()).doesNotContain("target:");
        assertThat(count("tollgate.filter.rate_limit.over_limit", "http", "")).isEqualTo(1);

        assertThat(get("/api/other", "dave").statusCode()).as("another user's descriptor").isEqualTo(200);
    }

    @Test
    void requestNoDescriptorAppliesToIsNeverAskedAbout() throws Exception {
        HttpResponse<String> response = get("/api/anonymous", null);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(rls.requests).as("the header action drops the descriptor when x-user is absent").isEmpty();
    }

    @Test
    void remoteAddressAndPathMakeTheDescriptorAndHttp2IsLimitedTheSameWay() throws Exception {
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpRequest request = HttpRequest.newBuilder(gateway.uri("http", "/by-address/h2")).timeout(LIMIT).build();
        for (int i = 0; i < RateLimitServer.LIMIT; i++) {
            assertThat(h2.send(request, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        }
        assertThat(rls.nextRequest().getDescriptorsList())
                .containsExactly(descriptor("remote_address", "127.0.0.1", "path", "/by-address/h2"));
        HttpResponse<String> limited = h2.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(limited.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("x-envoy-ratelimited")).hasValue("true");
    }

    @Test
    void grpcCallsAreDescribedByServiceAndMethodAndLimitedAsResourceExhausted() throws Exception {
        ManagedChannel channel = upstreams.grpc(gateway.port("http"));
        CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS);
        for (int i = 0; i < RateLimitServer.LIMIT; i++) {
            assertThat(ClientCalls.blockingUnaryCall(channel, EchoGrpc.UNARY, options, "m" + i)).isEqualTo("m" + i);
        }
        assertThat(rls.nextRequest().getDescriptorsList())
                .containsExactly(descriptor("rpc_service", "test.Echo", "rpc_method", "Unary"));
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, EchoGrpc.UNARY, options, "over"))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
    }

    @Test
    void timeoutLetsTheRequestThroughByDefaultAndIsRefusedUnderFailureModeDeny() throws Exception {
        HttpResponse<String> allowed = get("/hang/x", null);
        assertThat(allowed.statusCode()).isEqualTo(200);
        assertThat(count("tollgate.filter.rate_limit.timeout", "http", "hang")).isEqualTo(1);
        assertThat(count("tollgate.filter.rate_limit.failure_mode_allowed", "http", "hang")).isEqualTo(1);

        HttpResponse<String> denied = get("/deny-on-failure/x", null);
        assertThat(denied.statusCode()).isEqualTo(500);
        assertThat(denied.headers().firstValue("x-tollgate-error")).hasValue("rate_limit_service_error");
        assertThat(count("tollgate.filter.rate_limit.error", "http", "hang-deny")).isEqualTo(1);
    }

    @Test
    void boltCallsPastTheLimitGetServerBusyAndNeverReachTheProvider() throws Exception {
        EchoService sofa = upstreams.sofa(gateway.port("bolt"));
        for (int i = 0; i < RateLimitServer.LIMIT; i++) {
            assertThat(sofa.echo("b" + i)).isEqualTo("b" + i);
        }
        RateLimitRequest asked = rls.nextRequest();
        assertThat(asked.getDomain()).isEqualTo("rpc");
        assertThat(asked.getDescriptors(0).getEntries(0).getValue()).startsWith(EchoService.class.getName());
        assertThat(asked.getDescriptors(0).getEntries(1).getKey()).isEqualTo("method");
        assertThat(asked.getDescriptors(0).getEntries(1).getValue()).isEqualTo("echo");
        int reached = upstreams.boltCalls.get();

        assertThatThrownBy(() -> sofa.echo("over"))
                .isInstanceOfSatisfying(SofaRpcException.class,
                        e -> assertThat(e.getMessage()).containsIgnoringCase("busy"))
                .isNotInstanceOf(SofaTimeOutException.class);
        assertThat(upstreams.boltCalls.get()).isEqualTo(reached);
        assertThat(sofa.slow("s")).as("another method, another descriptor").isEqualTo("s");
    }

    @Test
    void dubboCallsPastTheLimitGetThreadPoolExhaustedAndNeverReachTheProvider() {
        DubboConsumer consumer = upstreams.dubbo(gateway.port("dubbo"));
        for (int i = 0; i < RateLimitServer.LIMIT; i++) {
            assertThat(consumer.service().echo("d" + i)).isEqualTo("d" + i);
        }
        int reached = upstreams.dubboCalls();

        assertThatThrownBy(() -> consumer.service().echo("over"))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.isTimeout()).isFalse();
                    assertThat(e).hasMessageContaining("tollgate: rate limited");
                });
        assertThat(upstreams.dubboCalls()).isEqualTo(reached);
        assertThat(consumer.service().tagged("x")).as("another method, another descriptor").endsWith(":x");
    }

    private static RateLimitDescriptor descriptor(String... keysAndValues) {
        RateLimitDescriptor.Builder descriptor = RateLimitDescriptor.newBuilder();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            descriptor.addEntries(RateLimitDescriptor.Entry.newBuilder().setKey(keysAndValues[i])
                    .setValue(keysAndValues[i + 1]));
        }
        return descriptor.build();
    }

    private static double count(String name, String listener, String route) {
        return gateway.count(name, "listener", listener, "route", route);
    }

    private static HttpResponse<String> get(String path, String user) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri("http", path)).timeout(LIMIT);
        if (user != null) {
            request.header("x-user", user);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
