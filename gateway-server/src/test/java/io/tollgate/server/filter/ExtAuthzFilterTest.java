package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alipay.sofa.rpc.core.exception.SofaRpcException;
import com.alipay.sofa.rpc.core.exception.SofaTimeOutException;
import com.sun.net.httpserver.HttpServer;
import io.envoyproxy.envoy.service.auth.v3.AttributeContext;
import io.envoyproxy.envoy.service.auth.v3.CheckRequest;
import io.grpc.CallOptions;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.tollgate.server.rpc.EchoService;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.http2.EchoGrpc;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ext_authz} filter against a real grpc-java server of Envoy's Authorization API (and
 * a real HTTP authorization server) with real clients of every protocol: for each rule, the
 * request the policy allows passes with the service's headers, and the one it denies is answered
 * in the caller's protocol without reaching the upstream (401/403 with the service's headers and body,
 * UNAUTHENTICATED, Bolt and Dubbo error statuses); a check past its timeout or to a dead service
 * refuses, or lets through under {@code failure_mode_allow}; a route may turn the check off.
 */
class ExtAuthzFilterTest {

    private static final String CONFIG = """
            event_loops: 2
            listeners:
              - name: http
                protocols: [http1, h2c]
                access_log: { path: "${LOG}" }
                filters:
                  - name: ext_authz
                    grpc_service: { target: "127.0.0.1:${AUTHZ}", timeout: 10s }
                    context_extensions: { tenant: blue }
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - name: hang
                          match: { prefix: /hang }
                          route: { cluster: http }
                          filters:
                            ext_authz: { grpc_service: { target: "127.0.0.1:${AUTHZ}", timeout: 300ms } }
                        - name: hang-allowed
                          match: { prefix: /failure-allowed }
                          route: { cluster: http }
                          filters:
                            ext_authz:
                              grpc_service: { target: "127.0.0.1:${AUTHZ}", timeout: 300ms }
                              failure_mode_allow: true
                        - name: dead
                          match: { prefix: /dead }
                          route: { cluster: http }
                          filters:
                            ext_authz: { grpc_service: { target: "127.0.0.1:${DEAD}" }, status_on_error: 503 }
                        - name: http-mode
                          match: { prefix: /http-mode }
                          route: { cluster: http }
                          filters:
                            ext_authz:
                              http_service:
                                server_uri: "http://127.0.0.1:${HTTP_AUTHZ}"
                                path_prefix: /check
                                timeout: 10s
                                allowed_upstream_headers: [x-user]
                                allowed_client_headers: [www-authenticate]
                        - name: body
                          match: { prefix: /body/ }
                          route: { cluster: http }
                          filters:
                            ext_authz:
                              grpc_service: { target: "127.0.0.1:${AUTHZ}", timeout: 10s }
                              with_request_body: { max_request_bytes: 16 }
                        - name: body-partial
                          match: { prefix: /body-partial/ }
                          route: { cluster: http }
                          filters:
                            ext_authz:
                              grpc_service: { target: "127.0.0.1:${AUTHZ}", timeout: 10s }
                              with_request_body: { max_request_bytes: 16, allow_partial_message: true, pack_as_bytes: true }
                        - name: http-body
                          match: { prefix: /http-body/ }
                          route: { cluster: http }
                          filters:
                            ext_authz:
                              http_service: { server_uri: "http://127.0.0.1:${HTTP_AUTHZ}", timeout: 10s }
                              with_request_body: { max_request_bytes: 1024 }
                        - name: open
                          match: { prefix: /open }
                          route: { cluster: http }
                          filters: { ext_authz: { disabled: true } }
                        - { name: grpc, match: { prefix: /test.Echo/ }, route: { cluster: grpc } }
                        - { name: rest, match: { prefix: / }, route: { cluster: http } }
              - name: bolt
                protocols: [bolt]
                filters: [{ name: ext_authz, grpc_service: { target: "127.0.0.1:${AUTHZ}", timeout: 10s } }]
                route_config: { virtual_hosts: [{ name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: bolt } }] }] }
              - name: dubbo
                protocols: [dubbo]
                filters: [{ name: ext_authz, grpc_service: { target: "127.0.0.1:${AUTHZ}", timeout: 10s } }]
                route_config: { virtual_hosts: [{ name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: dubbo } }] }] }
            """ + EveryProtocol.CLUSTERS;
    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final String OK = "tollgate.filter.ext_authz.ok";
    private static final String DENIED = "tollgate.filter.ext_authz.denied";

    @TempDir
    static Path dir;
    private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final BlockingQueue<String> httpChecks = new LinkedBlockingQueue<>();
    private static EveryProtocol upstreams;
    private static AuthorizationServer authz;
    private static HttpServer httpAuthz;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstreams = new EveryProtocol();
        authz = new AuthorizationServer();
        httpAuthz = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        httpAuthz.createContext("/", exchange -> {
            byte[] checked = exchange.getRequestBody().readAllBytes();
            httpChecks.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + (checked.length == 0 ? ""
                    : " body=" + new String(checked, StandardCharsets.UTF_8) + " partial="
                    + exchange.getRequestHeaders().getFirst("x-envoy-auth-partial-body")));
            boolean good = "Bearer good".equals(exchange.getRequestHeaders().getFirst("authorization"));
            if (good) {
                exchange.getResponseHeaders().set("x-user", "bob");
                exchange.getResponseHeaders().set("x-not-allowed", "dropped");
            } else {
                exchange.getResponseHeaders().set("www-authenticate", "Basic");
                exchange.getResponseHeaders().set("x-internal", "not for clients");
            }
            byte[] body = good ? new byte[0] : "denied by policy\n".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(good ? 200 : 403, good ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        httpAuthz.start();
        int dead;
        try (ServerSocket socket = new ServerSocket(0)) {
            dead = socket.getLocalPort();
        }
        gateway = upstreams.gateway(CONFIG, Map.of("LOG", dir.resolve("access.log"), "AUTHZ", authz.port(),
                "DEAD", dead, "HTTP_AUTHZ", httpAuthz.getAddress().getPort()));
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (upstreams != null) {
            upstreams.close();
        }
        if (authz != null) {
            authz.close();
        }
        if (httpAuthz != null) {
            httpAuthz.stop(0);
        }
    }

    @BeforeEach
    void forgetEarlierChecks() {
        authz.checks.clear();
        httpChecks.clear();
    }

    @Test
    void allowedHttp1RequestCarriesItsAttributesAndGoesOnWithTheServicesHeaders() throws Exception {
        double ok = count(OK, "http", "");
        HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("http", "/api/x?q=1"))
                .header("authorization", "Bearer good").header("x-remove-me", "secret"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("target: /api/x?q=1", "h-x-user: alice").doesNotContain("x-remove-me");
        assertThat(response.headers().firstValue("x-authz")).hasValue("checked");
        CheckRequest check = authz.nextCheck();
        AttributeContext.HttpRequest http = check.getAttributes().getRequest().getHttp();
        assertThat(http.getMethod()).isEqualTo("GET");
        assertThat(http.getPath()).isEqualTo("/api/x?q=1");
        assertThat(http.getProtocol()).isEqualTo("HTTP/1.1");
        assertThat(http.getHeadersMap()).containsEntry("authorization", "Bearer good")
                .containsEntry("x-remove-me", "secret").containsEntry(":method", "GET");
        assertThat(check.getAttributes().getSource().getAddress().getSocketAddress().getAddress())
                .isEqualTo("127.0.0.1");
        assertThat(check.getAttributes().getContextExtensionsMap()).containsEntry("tenant", "blue");
        assertThat(count(OK, "http", "")).isEqualTo(ok + 1);
    }

    @Test
    void deniedHttp1RequestIsAnsweredWithTheServicesStatusAndHeadersAndNeverReachesTheUpstream() throws Exception {
        double denied = count(DENIED, "http", "");
        HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("http", "/api/denied"))
                .header("authorization", "Bearer bad"));

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("www-authenticate")).hasValue("Bearer realm=\"tollgate\"");
        assertThat(response.headers().firstValue("x-tollgate-error")).hasValue("ext_authz_denied");
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body()).isEqualTo(AuthorizationServer.DENIED_BODY);
        assertThat(count(DENIED, "http", "")).isEqualTo(denied + 1);
        Await.until("the access log shows UAEX on the denial", LIMIT, () -> accessLog().lines()
                .anyMatch(l -> l.contains("/api/denied") && l.contains(" 401 UAEX ")));
    }

    @Test
    void http2RequestsAreCheckedTheSameWay() throws Exception {
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpResponse<String> allowed = h2.send(HttpRequest.newBuilder(gateway.uri("http", "/h2/ok")).timeout(LIMIT)
                .header("authorization", "Bearer good").build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> denied = h2.send(HttpRequest.newBuilder(gateway.uri("http", "/h2/denied")).timeout(LIMIT)
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(allowed.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(allowed.statusCode()).isEqualTo(200);
        assertThat(allowed.body()).contains("h-x-user: alice");
        assertThat(denied.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(denied.statusCode()).isEqualTo(401);
        assertThat(authz.nextCheck().getAttributes().getRequest().getHttp().getProtocol()).isEqualTo("HTTP/2.0");
    }

    @Test
    void grpcCallsAreAllowedWithTheirMetadataAndDeniedAsUnauthenticated() {
        ManagedChannel channel = upstreams.grpc(gateway.port("http"));
        CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS);
        Metadata good = new Metadata();
        good.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer good");

        assertThat(ClientCalls.blockingUnaryCall(ClientInterceptors.intercept(channel,
                MetadataUtils.newAttachHeadersInterceptor(good)), EchoGrpc.UNARY, options, "one")).isEqualTo("one");
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, EchoGrpc.UNARY, options, "two"))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
    }

    @Test
    void checkPastItsTimeoutRefusesTheRequestAndCountsATimeout() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("http", "/hang/x"))
                .header("x-authz-hang", "1").header("authorization", "Bearer good"));

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.headers().firstValue("x-tollgate-error")).hasValue("ext_authz_error");
        assertThat(count("tollgate.filter.ext_authz.timeout", "http", "hang")).isEqualTo(1);
        assertThat(count("tollgate.filter.ext_authz.error", "http", "hang")).isEqualTo(1);
        assertThat(authz.hanging.get()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void failureModeAllowLetsTheRequestThroughWhenTheCheckTimesOut() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("http", "/failure-allowed/x"))
                .header("x-authz-hang", "1"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("target: /failure-allowed/x").doesNotContain("h-x-user");
        assertThat(count("tollgate.filter.ext_authz.failure_mode_allowed", "http", "hang-allowed")).isEqualTo(1);
    }

    @Test
    void serviceThatCannotBeReachedRefusesWithStatusOnError() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("http", "/dead/x"))
                .header("authorization", "Bearer good"));

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("x-tollgate-error")).hasValue("ext_authz_error");
        assertThat(count("tollgate.filter.ext_authz.error", "http", "dead")).isEqualTo(1);
    }

    @Test
    void httpServiceAllowsWithItsAllowedHeadersAndDeniesWithItsStatus() throws Exception {
        HttpResponse<String> allowed = send(HttpRequest.newBuilder(gateway.uri("http", "/http-mode/a?b=c"))
                .header("authorization", "Bearer good"));
        assertThat(allowed.statusCode()).isEqualTo(200);
        assertThat(allowed.body()).contains("h-x-user: bob").doesNotContain("x-not-allowed");
        assertThat(httpChecks.poll(10, TimeUnit.SECONDS)).isEqualTo("GET /check/http-mode/a?b=c");

        HttpResponse<String> denied = send(HttpRequest.newBuilder(gateway.uri("http", "/http-mode/a"))
                .POST(HttpRequest.BodyPublishers.ofString("body")));
        assertThat(denied.statusCode()).isEqualTo(403);
        assertThat(denied.headers().firstValue("www-authenticate")).hasValue("Basic");
        assertThat(denied.headers().firstValue("x-internal")).isEmpty();
        assertThat(denied.body()).isEqualTo("denied by policy\n");
        assertThat(httpChecks.poll(10, TimeUnit.SECONDS)).isEqualTo("POST /check/http-mode/a");
    }

    @Test
    void bodyUpToTheLimitGoesWithTheCheckAndThenUpstreamWhole() throws Exception {
        String body = "exactly16bytes!!";
        HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("http", "/body/x"))
                .header("authorization", "Bearer good").POST(HttpRequest.BodyPublishers.ofString(body)));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("body-bytes: 16", "h-x-user: alice");
        AttributeContext.HttpRequest http = authz.nextCheck().getAttributes().getRequest().getHttp();
        assertThat(http.getBody()).isEqualTo(body);
        assertThat(http.getRawBody().isEmpty()).isTrue();
        assertThat(http.getHeadersMap()).containsEntry("x-envoy-auth-partial-body", "false");
    }

    @Test
    void bodyPastTheLimitIsRefused413WithoutACheckUnlessPartialBodiesAreAllowed() throws Exception {
        double tooLarge = count("tollgate.filter.ext_authz.body_too_large", "http", "body");
        HttpResponse<String> refused = send(HttpRequest.newBuilder(gateway.uri("http", "/body/x"))
                .header("authorization", "Bearer good").POST(HttpRequest.BodyPublishers.ofString("seventeen bytes!!")));

        assertThat(refused.statusCode()).isEqualTo(413);
        assertThat(refused.headers().firstValue("x-tollgate-error")).hasValue("ext_authz_body_too_large");
        assertThat(count("tollgate.filter.ext_authz.body_too_large", "http", "body")).isEqualTo(tooLarge + 1);
        assertThat(authz.checks).isEmpty();

        byte[] large = new byte[256 * 1024];
        Arrays.fill(large, (byte) 'a');
        System.arraycopy("first sixteen b!".getBytes(StandardCharsets.UTF_8), 0, large, 0, 16);
        HttpResponse<String> partial = send(HttpRequest.newBuilder(gateway.uri("http", "/body-partial/x"))
                .header("authorization", "Bearer good").POST(HttpRequest.BodyPublishers.ofByteArray(large)));

        assertThat(partial.statusCode()).isEqualTo(200);
        assertThat(partial.body()).as("the whole body goes upstream").contains("body-bytes: " + large.length);
        AttributeContext.HttpRequest http = authz.nextCheck().getAttributes().getRequest().getHttp();
        assertThat(http.getRawBody().toStringUtf8()).as("pack_as_bytes").isEqualTo("first sixteen b!");
        assertThat(http.getBody()).isEmpty();
        assertThat(http.getHeadersMap()).containsEntry("x-envoy-auth-partial-body", "true");
    }

    @Test
    void pipelinedRequestsEachGetTheirOwnBodyChecked() throws Exception {
        String post = "POST /body/%s HTTP/1.1\r\nhost: x\r\nauthorization: Bearer good\r\ncontent-length: %d\r\n\r\n%s";
        try (RawHttp raw = new RawHttp(gateway.port("http"))) {
            raw.send(post.formatted("one", 5, "first") + post.formatted("two", 6, "second"));
            RawHttp.Response first = raw.read();
            RawHttp.Response second = raw.read();

            assertThat(first.status()).isEqualTo(200);
            assertThat(first.body()).contains("target: /body/one", "body-bytes: 5");
            assertThat(second.status()).isEqualTo(200);
            assertThat(second.body()).as("the queued request's body is read for its check, then forwarded")
                    .contains("target: /body/two", "body-bytes: 6");
        }
        assertThat(authz.nextCheck().getAttributes().getRequest().getHttp().getBody()).isEqualTo("first");
        assertThat(authz.nextCheck().getAttributes().getRequest().getHttp().getBody()).isEqualTo("second");
    }

    @Test
    void httpServiceGetsTheBodyAsItsOwn() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(gateway.uri("http", "/http-body/x"))
                .header("authorization", "Bearer good").POST(HttpRequest.BodyPublishers.ofString("{\"amount\":10}")));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("body-bytes: 13");
        assertThat(httpChecks.poll(10, TimeUnit.SECONDS)).isEqualTo("POST /http-body/x body={\"amount\":10} partial=false");
    }

    @Test
    void routeThatDisablesTheFilterIsNeverChecked() throws Exception {
        assertThat(send(HttpRequest.newBuilder(gateway.uri("http", "/open/x"))).statusCode()).isEqualTo(200);
        assertThat(authz.checks).isEmpty();
    }

    @Test
    void boltCallTheServiceAllowsPassesAndOneItDeniesGetsAnErrorAndNeverReachesTheProvider() throws Exception {
        EchoService sofa = upstreams.sofa(gateway.port("bolt"));
        assertThat(sofa.echo("one")).isEqualTo("one");
        Map<String, String> headers = authz.nextCheck().getAttributes().getRequest().getHttp().getHeadersMap();
        assertThat(headers).containsEntry("method", "echo").containsKey("service");
        assertThat(headers.get("service")).startsWith(EchoService.class.getName());
        int reached = upstreams.boltCalls.get();

        assertThatThrownBy(() -> sofa.slow("two"))
                .isInstanceOf(SofaRpcException.class)
                .as("answered with the caller's id, not left to time out").isNotInstanceOf(SofaTimeOutException.class);
        assertThat(upstreams.boltCalls.get()).isEqualTo(reached);
        assertThat(count(DENIED, "bolt", "")).isEqualTo(1);
    }

    @Test
    void dubboCallGetsTheServicesHeadersAsAttachmentsAndADeniedOneAnError() throws Exception {
        DubboConsumer consumer = upstreams.dubbo(gateway.port("dubbo"));
        assertThat(consumer.service().attachment("x-user")).as("set by the authorization service").isEqualTo("alice");
        CheckRequest check = authz.nextCheck();
        assertThat(check.getAttributes().getRequest().getHttp().getHeadersMap())
                .containsEntry("method", "attachment");
        assertThat(check.getAttributes().getRequest().getHttp().getPath()).endsWith("/attachment");
        int reached = upstreams.dubboCalls();

        assertThatThrownBy(() -> consumer.service().tagged("x"))
                .isInstanceOfSatisfying(RpcException.class,
                        e -> assertThat(e.isTimeout()).as("answered with the caller's id").isFalse());
        assertThat(upstreams.dubboCalls()).isEqualTo(reached);
        assertThat(count(DENIED, "dubbo", "")).isEqualTo(1);
    }

    private static String accessLog() {
        try {
            Path log = dir.resolve("access.log");
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double count(String name, String listener, String route) {
        return gateway.count(name, "listener", listener, "route", route);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(LIMIT).build(), HttpResponse.BodyHandlers.ofString());
    }
}
