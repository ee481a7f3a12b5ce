package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.CallOptions;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.server.rpc.AnsweringBoltUpstream;
import io.tollgate.server.rpc.BoltFrames;
import io.tollgate.server.rpc.RawBoltClient;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboEchoService;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.http2.EchoGrpc;
import io.tollgate.server.http2.EchoServer;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code fault} filter with real clients on every protocol: aborts answered in the protocol's
 * own form (HTTP status, gRPC status, Bolt and Dubbo statuses with the caller's id), delays that
 * hold a request on the event loop and then let it through, faults chosen by request header, a
 * seeded percentage within tolerance, and route overrides that change or disable the listener's
 * filter.
 */
class FaultFilterTest {

    private static final String INTERFACE = DubboEchoService.class.getName();
    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: http
                port: 0
                protocols: [http1, h2c]
                filters:
                  - name: fault
                    abort: { header_abort: true }
                    delay: { header_delay: true }
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - match: { prefix: /always/ }
                          route: { cluster: web }
                          filters: { fault: { abort: { http_status: 503 } } }
                        - match: { prefix: /share/ }
                          route: { cluster: web }
                          filters: { fault: { abort: { http_status: 500, percentage: 30 }, seed: 7 } }
                        - match: { prefix: /slow/ }
                          route: { cluster: web }
                          filters: { fault: { delay: { fixed_delay: 300ms } } }
                        - match: { prefix: /off/ }
                          route: { cluster: web }
                          filters: { fault: { disabled: true } }
                        - match: { prefix: /test.Echo/ }
                          route: { cluster: grpc }
                          filters: { fault: { abort: { http_status: 429, grpc_status: 8 }, headers: { x-fault: "on" } } }
                        - match: { prefix: / }
                          route: { cluster: web }
              - name: bolt
                port: 0
                protocols: [bolt]
                filters:
                  - name: fault
                    abort: { http_status: 503 }
                    headers: { fault: abort }
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - match: { prefix: / }
                          route: { cluster: bolt }
              - name: dubbo
                port: 0
                protocols: [dubbo]
                filters:
                  - name: fault
                    abort: { http_status: 403 }
                route_config:
                  virtual_hosts:
                    - name: echo
                      domains: ["${INTERFACE}"]
                      routes:
                        - match: { path: /${INTERFACE}/tagged }
                          route: { cluster: dubbo }
                          filters: { fault: { disabled: true } }
                        - match: { prefix: / }
                          route: { cluster: dubbo }
            clusters:
              - name: web
                endpoints: [{ address: 127.0.0.1, port: ${WEB} }]
              - name: grpc
                protocol: h2
                endpoints: [{ address: 127.0.0.1, port: ${GRPC} }]
              - name: bolt
                endpoints: [{ address: 127.0.0.1, port: ${BOLT} }]
              - name: dubbo
                endpoints: [{ address: 127.0.0.1, port: ${DUBBO} }]
            """;

    private static final StartedResources started = new StartedResources();
    private static final HttpClient http = HttpClient.newHttpClient();
    private static EventLoopGroup group;
    private static HttpUpstream web;
    private static EchoServer grpcServer;
    private static AnsweringBoltUpstream bolt;
    private static TestGateway gateway;
    private static ManagedChannel channel;
    private static DubboConsumer consumer;

    @BeforeAll
    static void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        web = started.add(new HttpUpstream("web"));
        grpcServer = new EchoServer();
        bolt = started.add(new AnsweringBoltUpstream(group, 16));
        DubboProvider dubbo = started.add(DubboProvider.named("main").start());
        gateway = started.add(TestGateway.start(CONFIG, Map.of("WEB", web.port(), "GRPC", grpcServer.port(),
                "BOLT", bolt.port(), "DUBBO", dubbo.port(), "INTERFACE", INTERFACE)));
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", gateway.port("http"),
                InsecureChannelCredentials.create()).build();
        consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
    }

    @AfterAll
    static void stop() throws Exception {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        started.close();
        grpcServer.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void routeOverrideAbortsEveryRequestWithItsStatus() throws Exception {
        double before = gateway.count("tollgate.filter.fault.aborts", "listener", "http", "route", "");
        HttpResponse<String> response = get("/always/x", Map.of());
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("x-tollgate-error")).hasValue("fault_injected");
        assertThat(gateway.count("tollgate.filter.fault.aborts", "listener", "http")).isGreaterThan(before);
    }

    @Test
    void requestHeadersChooseTheAbortAndRequestsWithoutThemPass() throws Exception {
        assertThat(get("/any", Map.of("x-tollgate-fault-abort-request", "418")).statusCode()).isEqualTo(418);
        assertThat(get("/any", Map.of("x-tollgate-fault-abort-request", "not a status")).statusCode())
                .isEqualTo(200);
        HttpResponse<String> passed = get("/any", Map.of());
        assertThat(passed.statusCode()).isEqualTo(200);
        assertThat(passed.body()).contains("upstream: web");
    }

    @Test
    void delayHoldsTheRequestThenTheUpstreamAnswers() throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> response = get("/slow/x", Map.of());
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("upstream: web");
        assertThat(elapsedMillis).isGreaterThanOrEqualTo(300);
        assertThat(gateway.count("tollgate.filter.fault.delays", "listener", "http", "route", "")).isPositive();
    }

    @Test
    void headerDelayHoldsAPostWithItsBodyUntilItPasses() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(gateway.uri("http", "/any"))
                .version(HttpClient.Version.HTTP_1_1)
                .header("x-tollgate-fault-delay-request", "200")
                .POST(HttpRequest.BodyPublishers.ofString("x".repeat(100_000))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("body-bytes: 100000");
    }

    @Test
    void seededPercentageAbortsAboutItsShare() throws Exception {
        int aborted = 0;
        int total = 400;
        for (int i = 0; i < total; i++) {
            int status = get("/share/" + i, Map.of()).statusCode();
            assertThat(status).isIn(200, 500);
            aborted += status == 500 ? 1 : 0;
        }
        assertThat(aborted).isBetween(total * 30 / 100 - 40, total * 30 / 100 + 40);
    }

    @Test
    void disabledOnTheRouteIgnoresTheFaultHeaders() throws Exception {
        assertThat(get("/off/x", Map.of("x-tollgate-fault-abort-request", "503")).statusCode()).isEqualTo(200);
    }

    @Test
    void grpcCallGetsTheConfiguredGrpcStatusWhenItsHeaderSelectsIt() {
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("x-fault", Metadata.ASCII_STRING_MARSHALLER), "on");
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(
                ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers)), EchoGrpc.UNARY,
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "hello"))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
                    assertThat(e.getStatus().getDescription()).isEqualTo("fault_injected");
                });
        assertThat(ClientCalls.blockingUnaryCall(channel, EchoGrpc.UNARY,
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "hello")).isEqualTo("hello");
    }

    @Test
    void boltRequestIsAnsweredServerBusyWithTheCallersIdOnlyWhenItsHeaderSelectsIt() throws Exception {
        try (RawBoltClient raw = new RawBoltClient(group, gateway.port("bolt"))) {
            raw.send(BoltFrames.request(71, false, 3000, Map.of("service", "any.service:1.0", "fault", "abort"), "x"));
            assertThat(raw.next(3000)).isEqualTo(new RawBoltClient.Received(BoltFrame.Kind.RESPONSE, 71,
                    BoltStatus.SERVER_THREADPOOL_BUSY.code()));
            raw.send(BoltFrames.request(72, "any.service:1.0", "x"));
            assertThat(raw.next(3000)).isEqualTo(new RawBoltClient.Received(BoltFrame.Kind.RESPONSE, 72,
                    BoltStatus.SUCCESS.code()));
        }
        assertThat(gateway.count("tollgate.filter.fault.aborts", "listener", "bolt")).isEqualTo(1);
    }

    @Test
    void dubboCallIsRefusedWhileTheMethodWithTheFilterDisabledPasses() {
        assertThatThrownBy(() -> consumer.service().echo("hello"))
                .isInstanceOf(RpcException.class)
                .hasMessageContaining("tollgate: permission denied");
        assertThat(consumer.service().tagged("hello")).isEqualTo("main:hello");
    }

    private static HttpResponse<String> get(String path, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri("http", path));
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
