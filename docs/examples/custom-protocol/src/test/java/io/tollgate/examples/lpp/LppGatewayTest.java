package io.tollgate.examples.lpp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Counter;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.RpcOptions;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.server.Gateway;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * LPP through a real gateway, end to end over real sockets: the plug-in found on the class path,
 * detected beside HTTP/1 on one port, routed by service and method, multiplexed with ids
 * remapped, retried, answered by the gateway itself (no route, heartbeat, malformed frame). The
 * clients and upstreams are plain sockets reading and writing the bytes of the ruler.
 */
class LppGatewayTest {

    private static final String CONFIG = """
            admin: { address: 127.0.0.1, port: 0 }
            event_loops: 1
            listeners:
              - name: edge
                address: 127.0.0.1
                port: 0
                protocols: [http1, lpp]
                lpp: { max_frame_bytes: 4096 }
                route_config:
                  virtual_hosts:
                    - name: web
                      domains: ["127.0.0.1"]
                      routes: [{ match: { prefix: / }, route: { cluster: web } }]
                    - name: orders
                      domains: ["orders"]
                      routes: [{ match: { prefix: / }, route: { cluster: orders } }]
                    - name: rpc
                      domains: ["*"]
                      routes:
                        - match: { prefix: /users/audit }
                          route: { cluster: audit }
                        - match: { prefix: /users/ }
                          route: { cluster: users }
                        - match: { prefix: /reorder/ }
                          route: { cluster: reorder }
                        - match: { prefix: /flaky/ }
                          route:
                            cluster: flaky
                            retry_policy:
                              retry_on: [reset, connect-failure]
                              num_retries: 1
                              retry_back_off: { base_interval: 1ms }
            clusters:
              - { name: web, endpoints: [{ address: 127.0.0.1, port: ${WEB} }] }
              - { name: orders, endpoints: [{ address: 127.0.0.1, port: ${ORDERS} }] }
              - { name: users, endpoints: [{ address: 127.0.0.1, port: ${USERS} }] }
              - { name: audit, endpoints: [{ address: 127.0.0.1, port: ${AUDIT} }] }
              - { name: reorder, endpoints: [{ address: 127.0.0.1, port: ${REORDER} }] }
              - name: flaky
                lb_policy: round_robin
                endpoints: [{ address: 127.0.0.1, port: ${CLOSING} }, { address: 127.0.0.1, port: ${STEADY} }]
            """;

    /** Requests each of the two clients of the multiplexing test sends; the upstream answers once it holds both. */
    private static final int PER_CLIENT = 8;

    private static final List<AutoCloseable> upstreams = new ArrayList<>();
    private static HttpServer web;
    private static LppUpstream reorder;
    private static LppUpstream closing;
    private static Gateway gateway;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        web = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        web.createContext("/", exchange -> {
            byte[] body = ("web:" + exchange.getRequestURI().getPath()).getBytes(UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        web.start();
        reorder = upstream(LppUpstream.reordering("reorder", 2 * PER_CLIENT));
        closing = upstream(LppUpstream.closingOnEachRequest());
        String yaml = CONFIG.replace("${WEB}", String.valueOf(web.getAddress().getPort()))
                .replace("${ORDERS}", port(LppUpstream.echo("orders")))
                .replace("${USERS}", port(LppUpstream.echo("users")))
                .replace("${AUDIT}", port(LppUpstream.echo("audit")))
                .replace("${REORDER}", String.valueOf(reorder.port()))
                .replace("${CLOSING}", String.valueOf(closing.port()))
                .replace("${STEADY}", port(LppUpstream.echo("steady")));
        gateway = Gateway.start(ConfigLoader.parse(yaml));
        port = gateway.port("edge");
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        for (AutoCloseable upstream : upstreams) {
            upstream.close();
        }
        web.stop(0);
    }

    @Test
    void httpStillWorksOnThePortLppSharesAndBothAreDetected() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hello")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("web:/hello");
        try (LppClient client = new LppClient(port)) {
            assertThat(client.call(1, "orders", "list", "a").body()).isEqualTo("orders:a");
        }
    }

    @Test
    void routesByServiceAsAuthorityAndByMethodInThePath() throws Exception {
        try (LppClient client = new LppClient(port)) {
            LppMessage orders = client.call(1, "orders", "list", "a");
            LppMessage users = client.call(2, "users", "get", "b");
            LppMessage audit = client.call(3, "users", "audit", "c");

            assertThat(orders).isEqualTo(new LppMessage(LppProtocol.KIND_RESPONSE, 0, 1, "", "", "orders:a"));
            assertThat(users).isEqualTo(new LppMessage(LppProtocol.KIND_RESPONSE, 0, 2, "", "", "users:b"));
            assertThat(audit).isEqualTo(new LppMessage(LppProtocol.KIND_RESPONSE, 0, 3, "", "", "audit:c"));
        }
    }

    @Test
    void multiplexesTwoClientsOnOneUpstreamConnectionAnsweredOutOfOrderEachWithItsOwnIds() throws Exception {
        try (LppClient a = new LppClient(port); LppClient b = new LppClient(port)) {
            List<Long> ids = new ArrayList<>();
            for (long id = 1; id <= PER_CLIENT; id++) {
                ids.add(id);
            }
            // both clients use the same ids: only the gateway's remapping keeps their calls apart
            for (long id : ids) {
                a.send(LppMessage.request(id, "reorder", "call", "a" + id));
                b.send(LppMessage.request(id, "reorder", "call", "b" + id));
            }

            List<Long> answeredA = answers(a, "a");
            List<Long> answeredB = answers(b, "b");

            List<Long> lastFirst = new ArrayList<>(ids);
            Collections.reverse(lastFirst);
            assertThat(answeredA).as("answered last first, as the upstream answered").isEqualTo(lastFirst);
            assertThat(answeredB).isEqualTo(lastFirst);
        }
        Set<Long> upstreamIds = new HashSet<>();
        for (LppMessage request : reorder.received()) {
            upstreamIds.add(request.requestId());
        }
        assertThat(reorder.received()).hasSize(2 * PER_CLIENT);
        assertThat(upstreamIds).as("the gateway's own ids, one per call in flight").hasSize(2 * PER_CLIENT);
    }

    @Test
    void retriesAResetOnTheOtherHostSoEveryCallSucceeds() throws Exception {
        try (LppClient client = new LppClient(port)) {
            for (long id = 1; id <= 6; id++) {
                LppMessage answer = client.call(id, "flaky", "call", "n" + id);

                assertThat(answer).isEqualTo(new LppMessage(LppProtocol.KIND_RESPONSE, 0, id, "", "", "steady:n" + id));
            }
        }
        int resets = closing.received().size();
        assertThat(resets).as("round robin sent some first attempts to the closing host").isPositive();
        assertThat(count("tollgate.upstream.rq.retry", "cluster", "flaky")).isEqualTo(resets);
        assertThat(count("tollgate.upstream.rq.retry_success", "cluster", "flaky")).isEqualTo(resets);
    }

    @Test
    void answersNoRouteItselfWithTheCallersId() throws Exception {
        double before = count("tollgate.downstream.rq.error", "listener", "edge", "reason", "no_route");
        try (LppClient client = new LppClient(port)) {
            LppMessage answer = client.call(-7, "nobody", "call", "x");

            assertThat(answer).isEqualTo(new LppMessage(LppProtocol.KIND_RESPONSE, LppStatus.NO_ROUTE.code(), -7, "", "",
                    ""));
            assertThat(client.call(8, "orders", "list", "still open").body()).isEqualTo("orders:still open");
        }
        assertThat(count("tollgate.downstream.rq.error", "listener", "edge", "reason", "no_route")).isEqualTo(before + 1);
    }

    @Test
    void answersHeartbeatsItself() throws Exception {
        try (LppClient client = new LppClient(port)) {
            client.send(LppMessage.encode(RpcFrame.Kind.HEARTBEAT, LppStatus.OK, 42, "", "", ""));

            assertThat(client.next()).isEqualTo(new LppMessage(LppProtocol.KIND_HEARTBEAT_ACK, 0, 42, "", "", ""));
            assertThat(client.call(43, "orders", "list", "after").body()).isEqualTo("orders:after");
        }
    }

    @Test
    void aMalformedFrameClosesOnlyItsOwnConnection() throws Exception {
        double before = count("tollgate.downstream.rq.error", "listener", "edge", "reason", "lpp_malformed_frame");
        try (LppClient good = new LppClient(port); LppClient tooLong = new LppClient(port);
                LppClient badVersion = new LppClient(port)) {
            assertThat(good.call(1, "orders", "list", "before").body()).isEqualTo("orders:before");

            // a request whose body length says 5000 bytes, over the listener's 4096: the frame is
            // refused from its head alone, answered with its id, and its connection closed
            byte[] head = LppMessage.request(99, "orders", "list", "");
            head[head.length - 2] = 0x13;
            head[head.length - 1] = (byte) 0x88;
            tooLong.send(head);
            assertThat(tooLong.next()).isEqualTo(new LppMessage(LppProtocol.KIND_RESPONSE, LppStatus.ERROR.code(), 99,
                    "", "", ""));
            assertThat(tooLong.closedByPeer()).isTrue();

            // a frame whose head cannot be trusted is not answered at all
            byte[] wrongVersion = LppMessage.request(100, "orders", "list", "");
            wrongVersion[LppProtocol.VERSION_OFFSET] = 9;
            badVersion.send(wrongVersion);
            assertThat(badVersion.closedByPeer()).isTrue();

            assertThat(good.call(2, "orders", "list", "after").body()).isEqualTo("orders:after");
        }
        assertThat(count("tollgate.downstream.rq.error", "listener", "edge", "reason", "lpp_malformed_frame"))
                .isEqualTo(before + 2);
    }

    @Test
    void theDocumentedConfigurationLoadsWithThePlugIn() {
        GatewayConfig config = ConfigLoader.load(Path.of("lpp-gateway.yaml"));

        assertThat(config.listeners().get(0).protocols()).containsExactly("http1", "lpp");
        assertThat(config.listeners().get(0).options("lpp"))
                .isEqualTo(new RpcOptions(65536, Duration.ofSeconds(30)));
    }

    /** The ids of the {@value #PER_CLIENT} answers to {@code client}, each checked to be its own call's. */
    private static List<Long> answers(LppClient client, String name) throws IOException {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < PER_CLIENT; i++) {
            LppMessage answer = client.next();
            assertThat(answer.body()).as("the answer to %s's call %d", name, answer.requestId())
                    .isEqualTo("reorder:" + name + answer.requestId());
            ids.add(answer.requestId());
        }
        return ids;
    }

    private static double count(String name, String... tags) {
        return gateway.metrics().registry().find(name).tags(tags).counters().stream().mapToDouble(Counter::count).sum();
    }

    private static LppUpstream upstream(LppUpstream upstream) {
        upstreams.add(upstream);
        return upstream;
    }

    private static String port(LppUpstream upstream) {
        return String.valueOf(upstream(upstream).port());
    }
}
