package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alipay.sofa.rpc.core.exception.SofaRpcException;
import com.alipay.sofa.rpc.core.exception.SofaTimeOutException;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.server.rpc.EchoService;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.http2.EchoGrpc;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code local_rate_limit} filter with real clients of every protocol through a real gateway
 * on two event loops: exactly the bucket's tokens pass within a fill (fills an hour apart, so
 * nothing depends on timing), then each protocol's refusal (429, RESOURCE_EXHAUSTED, Bolt server
 * busy, Dubbo thread pool exhausted); a bucket per route override and per descriptor value; a
 * disabled route; and tokens back after a short fill.
 */
class LocalRateLimitFilterTest {

    private static final String CONFIG = """
            event_loops: 2
            listeners:
              - name: http
                protocols: [http1, h2c]
                access_log: { path: "${LOG}" }
                filters:
                  - { name: local_rate_limit, max_tokens: 3, tokens_per_fill: 3, fill_interval: 1h }
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - name: per-client
                          match: { prefix: /per-client }
                          route: { cluster: http }
                          filters:
                            local_rate_limit: { max_tokens: 2, fill_interval: 1h, descriptor: { header: x-client } }
                        - name: per-address
                          match: { prefix: /per-address }
                          route: { cluster: http }
                          filters:
                            local_rate_limit: { max_tokens: 1, fill_interval: 1h, descriptor: { client_ip: true } }
                        - name: h2
                          match: { prefix: /h2 }
                          route: { cluster: http }
                          filters: { local_rate_limit: { max_tokens: 1, fill_interval: 1h } }
                        - name: quick
                          match: { prefix: /quick }
                          route: { cluster: http }
                          filters: { local_rate_limit: { max_tokens: 1, fill_interval: 100ms } }
                        - name: unlimited
                          match: { prefix: /unlimited }
                          route: { cluster: http }
                          filters: { local_rate_limit: { disabled: true } }
                        - name: grpc
                          match: { prefix: /test.Echo/ }
                          route: { cluster: grpc }
                          filters: { local_rate_limit: { max_tokens: 2, fill_interval: 1h } }
                        - { name: rest, match: { prefix: / }, route: { cluster: http } }
              - name: bolt
                protocols: [bolt]
                filters: [{ name: local_rate_limit, max_tokens: 2, fill_interval: 1h }]
                route_config: { virtual_hosts: [{ name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: bolt } }] }] }
              - name: dubbo
                protocols: [dubbo]
                filters: [{ name: local_rate_limit, max_tokens: 2, fill_interval: 1h }]
                route_config: { virtual_hosts: [{ name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: dubbo } }] }] }
            """ + EveryProtocol.CLUSTERS;
    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final String GET_PER_ADDRESS = "GET /per-address/x HTTP/1.1\r\nHost: a\r\n\r\n";

    @TempDir
    static Path dir;
    private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static EveryProtocol upstreams;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstreams = new EveryProtocol();
        gateway = upstreams.gateway(CONFIG, Map.of("LOG", dir.resolve("access.log")));
    }

    @AfterAll
    static void stop() {
        if (upstreams != null) {
            upstreams.close();
        }
    }

    @Test
    void exactlyTheListenersTokensPassWithinAFillThenEachRequestIsAnswered429() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(get("/listener/" + i, null).statusCode()).as("request " + i).isEqualTo(200);
        }
        for (int i = 3; i < 6; i++) {
            HttpResponse<String> limited = get("/listener/" + i, null);
            assertThat(limited.statusCode()).as("request " + i).isEqualTo(429);
            assertThat(limited.headers().firstValue("x-tollgate-ratelimited")).hasValue("true");
            assertThat(limited.headers().firstValue("x-ratelimit-limit")).hasValue("3");
            assertThat(limited.headers().firstValue("x-ratelimit-remaining")).hasValue("0");
            assertThat(Long.parseLong(limited.headers().firstValue("x-ratelimit-reset").orElseThrow()))
                    .as("seconds to the next fill, at most the hour of the interval").isBetween(1L, 3600L);
            assertThat(limited.headers().firstValue("x-tollgate-error")).hasValue("local_rate_limited");
            assertThat(limited.body()).doesNotContain("target:");
        }

        assertThat(count(MetricNames.FILTER_LOCAL_RATE_LIMIT_ALLOWED, "http", "")).isEqualTo(3);
        assertThat(count(MetricNames.FILTER_LOCAL_RATE_LIMIT_LIMITED, "http", "")).isEqualTo(3);
        Path log = dir.resolve("access.log");
        Await.until("the access log shows RL on the refusals", LIMIT,
                () -> read(log).lines().filter(l -> l.contains("/listener/") && l.contains(" 429 RL ")).count() == 3);
    }

    @Test
    void eachDescriptorValueHasItsOwnBucket() throws Exception {
        for (String clientName : new String[] {"alice", "bob"}) {
            assertThat(get("/per-client/a", clientName).statusCode()).as(clientName).isEqualTo(200);
            assertThat(get("/per-client/b", clientName).statusCode()).as(clientName).isEqualTo(200);
            assertThat(get("/per-client/c", clientName).statusCode()).as(clientName).isEqualTo(429);
        }
        assertThat(get("/per-client/anonymous", null).statusCode()).isEqualTo(200);
        assertThat(count(MetricNames.FILTER_LOCAL_RATE_LIMIT_LIMITED, "http", "per-client")).isEqualTo(2);
    }

    @Test
    void eachClientAddressHasItsOwnBucket() throws Exception {
        for (String address : new String[] {"127.0.0.2", "127.0.0.3"}) {
            try (RawHttp connection = new RawHttp(address, gateway.port("http"))) {
                assertThat(connection.send(GET_PER_ADDRESS).read().status()).as(address).isEqualTo(200);
                assertThat(connection.send(GET_PER_ADDRESS).read().status()).as(address).isEqualTo(429);
            }
        }
        assertThat(count(MetricNames.FILTER_LOCAL_RATE_LIMIT_LIMITED, "http", "per-address")).isEqualTo(2);
    }

    @Test
    void http2RequestsAreRefusedWithTheSameStatusAndHeaders() throws Exception {
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpRequest request = HttpRequest.newBuilder(gateway.uri("http", "/h2/x")).timeout(LIMIT).build();
        HttpResponse<String> first = h2.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(first.statusCode()).isEqualTo(200);
        HttpResponse<String> limited = h2.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(limited.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("x-tollgate-ratelimited")).hasValue("true");
    }

    @Test
    void routeThatDisablesTheFilterIsNeverLimited() throws Exception {
        for (int i = 0; i < 10; i++) {
            assertThat(get("/unlimited/" + i, null).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void tokensComeBackAfterTheFillInterval() throws Exception {
        int sent = 0;
        while (get("/quick/drain", null).statusCode() == 200) {
            assertThat(++sent).as("one token per 100 ms cannot serve this many at once").isLessThan(50);
        }
        Await.until("a token after the fill", LIMIT, () -> {
            try {
                return get("/quick/refilled", null).statusCode() == 200;
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void grpcCallsPastTheRoutesTokensGetResourceExhausted() {
        ManagedChannel channel = upstreams.grpc(gateway.port("http"));
        CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS);
        assertThat(ClientCalls.blockingUnaryCall(channel, EchoGrpc.UNARY, options, "one")).isEqualTo("one");
        assertThat(ClientCalls.blockingUnaryCall(channel, EchoGrpc.UNARY, options, "two")).isEqualTo("two");
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, EchoGrpc.UNARY, options, "three"))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
                    assertThat(e.getStatus().getDescription()).isEqualTo("local_rate_limited");
                });
        assertThat(count(MetricNames.FILTER_LOCAL_RATE_LIMIT_LIMITED, "http", "grpc")).isEqualTo(1);
    }

    @Test
    void boltCallsPastTheTokensGetServerBusyAndNeverReachTheProvider() {
        EchoService sofa = upstreams.sofa(gateway.port("bolt"));
        assertThat(sofa.echo("one")).isEqualTo("one");
        assertThat(sofa.echo("two")).isEqualTo("two");
        int reached = upstreams.boltCalls.get();

        assertThatThrownBy(() -> sofa.echo("three"))
                .isInstanceOfSatisfying(SofaRpcException.class,
                        e -> assertThat(e.getMessage()).containsIgnoringCase("busy"))
                .as("answered with the caller's id, not left to time out").isNotInstanceOf(SofaTimeOutException.class);

        assertThat(upstreams.boltCalls.get()).isEqualTo(reached);
        assertThat(count(MetricNames.FILTER_LOCAL_RATE_LIMIT_LIMITED, "bolt", "")).isEqualTo(1);
        assertThat(answered4xx("bolt")).as("counted as HTTP counts a 429").isEqualTo(1);
    }

    @Test
    void dubboCallsPastTheTokensGetThreadPoolExhaustedAndNeverReachTheProvider() {
        DubboConsumer consumer = upstreams.dubbo(gateway.port("dubbo"));
        assertThat(consumer.service().echo("one")).isEqualTo("one");
        assertThat(consumer.service().echo("two")).isEqualTo("two");
        int reached = upstreams.dubboCalls();

        assertThatThrownBy(() -> consumer.service().echo("three"))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.isTimeout()).as("answered with the caller's id, not left to time out").isFalse();
                    assertThat(e).hasMessageContaining("tollgate: rate limited");
                });

        assertThat(upstreams.dubboCalls()).isEqualTo(reached);
        assertThat(count(MetricNames.FILTER_LOCAL_RATE_LIMIT_LIMITED, "dubbo", "")).isEqualTo(1);
        assertThat(answered4xx("dubbo")).as("counted as HTTP counts a 429").isEqualTo(1);
    }

    private static double answered4xx(String listener) {
        return gateway.count(MetricNames.DOWNSTREAM_RQ, MetricNames.TAG_LISTENER, listener,
                MetricNames.TAG_STATUS_CLASS, "4xx");
    }

    private static double count(String name, String listener, String route) {
        return gateway.count(name, MetricNames.TAG_LISTENER, listener, MetricNames.TAG_ROUTE, route);
    }

    private static HttpResponse<String> get(String path, String clientName) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri("http", path)).timeout(LIMIT);
        if (clientName != null) {
            request.header("x-client", clientName);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
