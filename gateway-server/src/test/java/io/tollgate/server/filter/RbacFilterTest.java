package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alipay.sofa.rpc.core.exception.SofaRpcException;
import com.alipay.sofa.rpc.core.exception.SofaTimeOutException;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.server.rpc.EchoService;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.http2.EchoGrpc;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.testing.TestPki;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.apache.dubbo.rpc.RpcContext;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code rbac} filter with real clients of every protocol through a real gateway to real
 * upstreams: refusals by path, header, source address, SNI, client certificate and RPC service
 * and method, each in the protocol's own form (403, PERMISSION_DENIED, Bolt and Dubbo error
 * statuses); shadow mode; a route's override and a route's disable.
 */
class RbacFilterTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: http
                protocols: [http1, h2c]
                filters:
                  - name: rbac
                    action: DENY
                    policies:
                      - name: denied-path
                        permissions: [{ path: { prefix: /denied } }]
                        principals: [{ any: true }]
                      - name: mallory
                        permissions: [{ any: true }]
                        principals: [{ header: { name: X-User, exact: mallory } }]
                      - name: read-only
                        permissions: [{ method: { exact: DELETE }, path: { prefix: /public } }]
                        principals: [{ any: true }]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - name: office
                          match: { prefix: /office }
                          route: { cluster: http }
                          filters:
                            rbac:
                              action: ALLOW
                              policies:
                                - { name: office, permissions: [{ any: true }], principals: [{ source_ip: [10.0.0.0/8] }] }
                        - name: loopback
                          match: { prefix: /loopback }
                          route: { cluster: http }
                          filters:
                            rbac:
                              action: ALLOW
                              policies:
                                - name: local
                                  permissions: [{ any: true }]
                                  principals: [{ source_ip: [10.0.0.0/8, "::1/128", 127.0.0.0/8] }]
                        - name: second-loopback
                          match: { prefix: /second-loopback }
                          route: { cluster: http }
                          filters:
                            rbac: { policies: [{ name: two, permissions: [{ any: true }], principals: [{ source_ip: [127.0.0.2/32] }] }] }
                        - name: open
                          match: { prefix: /denied/open }
                          route: { cluster: http }
                          filters: { rbac: { disabled: true } }
                        - { name: grpc, match: { prefix: /test.Echo/ }, route: { cluster: grpc } }
                        - { name: rest, match: { prefix: / }, route: { cluster: http } }
              - name: shadow
                protocols: [http1]
                filters:
                  - name: rbac
                    action: DENY
                    shadow: true
                    policies:
                      - { name: denied-path, permissions: [{ path: { prefix: /denied } }], principals: [{ any: true }] }
                route_config: { virtual_hosts: [{ name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: http } }] }] }
              - name: ipv6
                address: "::1"
                protocols: [http1]
                filters:
                  - name: rbac
                    policies: [{ name: v6-loopback, permissions: [{ any: true }], principals: [{ source_ip: ["::1/128"] }] }]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - name: v4-only
                          match: { prefix: /v4-only }
                          route: { cluster: http }
                          filters:
                            rbac: { policies: [{ name: v4, permissions: [{ any: true }], principals: [{ source_ip: [0.0.0.0/0] }] }] }
                        - { match: { prefix: / }, route: { cluster: http } }
              - name: tls
                protocols: [http1]
                tls:
                  cert_chain_file: ${LOCALHOST_CERT}
                  private_key_file: ${LOCALHOST_KEY}
                  sni_certificates:
                    - { server_names: [a.test], cert_chain_file: ${A_CERT}, private_key_file: ${A_KEY} }
                    - { server_names: [b.test], cert_chain_file: ${B_CERT}, private_key_file: ${B_KEY} }
                  client_auth: { mode: optional, ca_file: ${CA} }
                filters:
                  - name: rbac
                    policies:
                      - { name: a-site, permissions: [{ sni: { exact: a.test } }], principals: [{ any: true }] }
                      - name: our-client
                        permissions: [{ any: true }]
                        principals: [{ authenticated: { exact: "spiffe://tollgate/client" } }]
                route_config: { virtual_hosts: [{ name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: http } }] }] }
              - name: bolt
                protocols: [bolt]
                filters:
                  - name: rbac
                    action: DENY
                    policies:
                      - name: no-fail
                        permissions: [{ service: { prefix: io.tollgate.server.rpc.EchoService }, method: { exact: fail } }]
                        principals: [{ source_ip: [127.0.0.1] }]
                route_config: { virtual_hosts: [{ name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: bolt } }] }] }
              - name: dubbo
                protocols: [dubbo]
                filters:
                  - name: rbac
                    action: DENY
                    policies:
                      - name: no-fail
                        permissions: [{ service: { exact: io.tollgate.server.rpc.DubboEchoService }, method: { exact: fail } }]
                        principals: [{ any: true }]
                      - { name: mallory, permissions: [{ any: true }], principals: [{ header: { name: x-user, exact: mallory } }] }
                route_config: { virtual_hosts: [{ name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: dubbo } }] }] }
            """ + EveryProtocol.CLUSTERS;

    private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static EveryProtocol upstreams;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstreams = new EveryProtocol();
        gateway = upstreams.gateway(CONFIG, Map.of(
                "LOCALHOST_CERT", TestPki.cert("localhost"), "LOCALHOST_KEY", TestPki.key("localhost"),
                "A_CERT", TestPki.cert("a.test"), "A_KEY", TestPki.key("a.test"),
                "B_CERT", TestPki.cert("b.test"), "B_KEY", TestPki.key("b.test"), "CA", TestPki.cert("ca")));
    }

    @AfterAll
    static void stop() {
        if (upstreams != null) {
            upstreams.close();
        }
    }

    @AfterEach
    void clearDubboAttachments() {
        RpcContext.getClientAttachment().clearAttachments();
    }

    @Test
    void deniedPathIsAnswered403WithTheReasonAndCountedAndOthersPass() throws Exception {
        double denied = count(MetricNames.FILTER_RBAC_DENIED, "http", "");
        double allowed = count(MetricNames.FILTER_RBAC_ALLOWED, "http", "");

        HttpResponse<String> refused = get("http", "/denied/secret", Map.of());
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.headers().firstValue("x-tollgate-error")).hasValue("rbac_access_denied");
        assertThat(refused.body()).doesNotContain("target:");
        HttpResponse<String> served = get("http", "/public", Map.of());
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(served.body()).contains("target: /public");

        assertThat(count(MetricNames.FILTER_RBAC_DENIED, "http", "")).isEqualTo(denied + 1);
        assertThat(count(MetricNames.FILTER_RBAC_ALLOWED, "http", "")).isEqualTo(allowed + 1);
    }

    @Test
    void deniedHeaderValueIsRefusedWhateverItsCaseOfName() throws Exception {
        assertThat(get("http", "/public", Map.of("x-user", "mallory")).statusCode()).isEqualTo(403);
        assertThat(get("http", "/public", Map.of("X-User", "alice")).statusCode()).isEqualTo(200);
    }

    @Test
    void httpMethodAndPathTogetherMakeOnePermission() throws Exception {
        assertThat(send(request(gateway.uri("http", "/public/x")).DELETE()).statusCode()).isEqualTo(403);
        assertThat(send(request(gateway.uri("http", "/other/x")).DELETE()).statusCode()).isEqualTo(200);
    }

    @Test
    void sourceRangesOfARoutesOverrideAllowOnlyTheirClients() throws Exception {
        double deniedOnRoute = count(MetricNames.FILTER_RBAC_DENIED, "http", "office");

        assertThat(get("http", "/office/desk", Map.of()).statusCode()).as("127.0.0.1 is not in 10/8").isEqualTo(403);
        assertThat(get("http", "/loopback/desk", Map.of()).statusCode()).isEqualTo(200);
        assertThat(get("http", "/loopback/desk", Map.of("x-user", "mallory")).statusCode())
                .as("the override replaced the listener's policies for this route").isEqualTo(200);

        assertThat(count(MetricNames.FILTER_RBAC_DENIED, "http", "office")).isEqualTo(deniedOnRoute + 1);
    }

    @Test
    void ipv6ClientsMatchIpv6RangesOnly() throws Exception {
        URI base = URI.create("http://[::1]:" + gateway.port("ipv6"));
        assertThat(send(request(base.resolve("/v6"))).statusCode()).isEqualTo(200);
        assertThat(send(request(base.resolve("/v4-only"))).statusCode()).as("0.0.0.0/0 holds no IPv6 client")
                .isEqualTo(403);
    }

    @Test
    void clientsAreToldApartByTheirAddress() throws Exception {
        String get = "GET /second-loopback/x HTTP/1.1\r\nHost: a\r\n\r\n";
        try (RawHttp two = new RawHttp("127.0.0.2", gateway.port("http"));
                RawHttp three = new RawHttp("127.0.0.3", gateway.port("http"))) {
            assertThat(two.send(get).read().status()).isEqualTo(200);
            assertThat(three.send(get).read().status()).isEqualTo(403);
        }
    }

    @Test
    void routeThatDisablesTheFilterIsNotChecked() throws Exception {
        assertThat(get("http", "/denied/open/door", Map.of()).statusCode()).isEqualTo(200);
        assertThat(get("http", "/denied/closed", Map.of()).statusCode()).isEqualTo(403);
    }

    @Test
    void shadowModeCountsWhatItWouldRefuseAndLetsItThrough() throws Exception {
        double shadowDenied = count(MetricNames.FILTER_RBAC_SHADOW_DENIED, "shadow", "");
        double denied = count(MetricNames.FILTER_RBAC_DENIED, "shadow", "");
        double allowed = count(MetricNames.FILTER_RBAC_ALLOWED, "shadow", "");

        HttpResponse<String> response = get("shadow", "/denied/but-shadowed", Map.of());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("target: /denied/but-shadowed");
        assertThat(get("shadow", "/fine", Map.of()).statusCode()).isEqualTo(200);

        assertThat(count(MetricNames.FILTER_RBAC_SHADOW_DENIED, "shadow", "")).isEqualTo(shadowDenied + 1);
        assertThat(count(MetricNames.FILTER_RBAC_DENIED, "shadow", "")).isEqualTo(denied);
        assertThat(count(MetricNames.FILTER_RBAC_ALLOWED, "shadow", "")).isEqualTo(allowed + 1);
    }

    @Test
    void grpcCallsAreRefusedWithPermissionDeniedInTrailersOnly() {
        ManagedChannel channel = upstreams.grpc(gateway.port("http"));
        assertThat(ClientCalls.blockingUnaryCall(channel, EchoGrpc.UNARY, options(), "hello")).isEqualTo("hello");

        Metadata mallory = new Metadata();
        mallory.put(Metadata.Key.of("x-user", Metadata.ASCII_STRING_MARSHALLER), "mallory");
        Channel asMallory = ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(mallory));
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(asMallory, EchoGrpc.UNARY, options(), "hello"))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
                    assertThat(e.getStatus().getDescription()).isEqualTo("rbac_access_denied");
                });
    }

    @Test
    void sniOfTheHandshakeSelectsWhatIsAllowed() throws Exception {
        assertThat(overTls(TestPki.clientContext("ca", null), "a.test", "/by-sni")).startsWith("HTTP/1.1 200");
        assertThat(overTls(TestPki.clientContext("ca", null), "b.test", "/by-sni")).startsWith("HTTP/1.1 403");
        assertThat(overTls(TestPki.clientContext("ca", null), null, "/no-sni")).startsWith("HTTP/1.1 403");
    }

    @Test
    void verifiedClientIdentityIsAPrincipal() throws Exception {
        assertThat(overTls(TestPki.clientContext("ca", "client"), "b.test", "/by-identity")).startsWith("HTTP/1.1 200");
        assertThat(overTls(TestPki.clientContext("ca", "stranger"), "b.test", "/by-identity"))
                .startsWith("HTTP/1.1 403");
    }

    @Test
    void boltCallsOfADeniedMethodGetAnErrorStatusAndNeverReachTheProvider() {
        EchoService sofa = upstreams.sofa(gateway.port("bolt"));
        double denied = count(MetricNames.FILTER_RBAC_DENIED, "bolt", "");
        assertThat(sofa.echo("allowed")).isEqualTo("allowed");
        int reached = upstreams.boltCalls.get();

        assertThatThrownBy(() -> sofa.fail("refused"))
                .isInstanceOf(SofaRpcException.class)
                .as("answered with the caller's id, not left to time out").isNotInstanceOf(SofaTimeOutException.class)
                .isNotInstanceOf(IllegalStateException.class);

        assertThat(upstreams.boltCalls.get()).isEqualTo(reached);
        assertThat(count(MetricNames.FILTER_RBAC_DENIED, "bolt", "")).isEqualTo(denied + 1);
    }

    @Test
    void dubboCallsOfADeniedMethodOrAttachmentGetAnErrorStatusAndNeverReachTheProvider() {
        DubboConsumer consumer = upstreams.dubbo(gateway.port("dubbo"));
        assertThat(consumer.service().echo("allowed")).isEqualTo("allowed");
        int reached = upstreams.dubboCalls();

        assertThatThrownBy(() -> consumer.service().fail("refused"))
                .isInstanceOf(RpcException.class)
                .hasMessageContaining("tollgate: permission denied");
        RpcContext.getClientAttachment().setAttachment("x-user", "mallory");
        assertThatThrownBy(() -> consumer.service().echo("as mallory"))
                .isInstanceOf(RpcException.class)
                .hasMessageContaining("tollgate: permission denied");

        assertThat(upstreams.dubboCalls()).isEqualTo(reached);
        assertThat(count(MetricNames.FILTER_RBAC_DENIED, "dubbo", "")).isGreaterThanOrEqualTo(2);
    }

    private static CallOptions options() {
        return CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS);
    }

    private static double count(String name, String listener, String route) {
        return gateway.count(name, MetricNames.TAG_LISTENER, listener, MetricNames.TAG_ROUTE, route);
    }

    private static HttpResponse<String> get(String listener, String path, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = request(gateway.uri(listener, path));
        headers.forEach(request::header);
        return send(request);
    }

    private static HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** One HTTP/1.1 request over TLS with {@code serverName} (null: none) in the handshake; the whole answer. */
    private static String overTls(SSLContext context, String serverName, String path) throws IOException {
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", gateway.port("tls"))) {
            socket.setSoTimeout(10_000);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"http/1.1"});
            if (serverName != null) {
                parameters.setServerNames(List.of(new SNIHostName(serverName)));
            }
            socket.setSSLParameters(parameters);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
