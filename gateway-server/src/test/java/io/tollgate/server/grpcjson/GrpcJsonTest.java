package io.tollgate.server.grpcjson;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.tollgate.server.testing.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * JSON calls through {@code rpc_call} routes of protocol {@code grpc} and {@code triple} to real
 * grpc-java servers of {@code tollgate.test.Orders}: typed by server reflection v1, by v1alpha when
 * the server has only that, and by a descriptor set file for a server without reflection. The
 * servers and the gateway are started once for the class; the clients are the JDK's HttpClient
 * over HTTP/1.1 and h2c.
 */
class GrpcJsonTest {

    private static final String CONFIG = """
            event_loops: 2
            listeners:
              - name: http
                port: 0
                protocols: [http1, h2c]
                route_config:
                  virtual_hosts:
                    - name: calls
                      domains: ["*"]
                      routes:
                        - match: { prefix: /grpc }
                          rpc_call: { protocol: grpc, cluster: orders, timeout: 20s }
                        - match: { prefix: /file }
                          rpc_call: { protocol: grpc, cluster: bare, timeout: 20s, descriptor_set: "${SET}" }
                        - match: { prefix: /legacy }
                          rpc_call: { protocol: triple, cluster: legacy, timeout: 20s }
                        - match: { prefix: /slow }
                          rpc_call: { protocol: grpc, cluster: orders, timeout: 300ms }
            clusters:
              - { name: orders, protocol: h2, endpoints: [ { address: 127.0.0.1, port: ${ORDERS} } ] }
              - { name: bare, protocol: h2, endpoints: [ { address: 127.0.0.1, port: ${BARE} } ] }
              - { name: legacy, protocol: h2, endpoints: [ { address: 127.0.0.1, port: ${LEGACY} } ] }
            """;
    private static final String ORDERS = "/tollgate.test.Orders/";

    private static OrdersServer orders;
    private static OrdersServer bare;
    private static OrdersServer legacy;
    private static TestGateway gateway;
    private static HttpClient http1;
    private static HttpClient h2c;

    @BeforeAll
    static void start() throws Exception {
        orders = new OrdersServer(ProtoReflectionServiceV1.newInstance());
        bare = new OrdersServer(null);
        @SuppressWarnings("deprecation")
        ProtoReflectionService v1alpha = (ProtoReflectionService) ProtoReflectionService.newInstance();
        legacy = new OrdersServer(v1alpha);
        gateway = TestGateway.start(CONFIG, Map.of("ORDERS", orders.port(), "BARE", bare.port(),
                "LEGACY", legacy.port(), "SET", OrdersServer.descriptorSet().toString()));
        http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .build();
        h2c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        for (OrdersServer server : new OrdersServer[] {orders, bare, legacy}) {
            if (server != null) {
                server.close();
            }
        }
    }

    private static HttpRequest post(String path, String json) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port("http") + path))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The answer as "status body". */
    private static String call(HttpClient client, String path, String json) {
        HttpResponse<String> response = send(client, post(path, json));
        return response.statusCode() + " " + response.body();
    }

    @Test
    void unaryCallKeepsNestedMessagesRepeatedMapsInt64AndEnumsExact() {
        String order = """
                {"id": "o-1", "items": [{"sku": "a", "quantity": "9007199254740993", "tier": "GOLD"},
                  {"sku": "b", "quantity": 2}], "totals": {"eu": "9007199254740993", "us": 7}, "tier": "SILVER",
                 "ship_to": {"city": "Oslo", "lines": ["x", "y"]}, "big": 9007199254740993,
                 "unsignedBig": "18446744073709551614", "price": 0.1, "note": "AQID", "placed": "2026-11-28T10:00:00Z"}
                """;
        String expected = "200 {\"id\":\"o-1\",\"items\":[{\"sku\":\"a\",\"quantity\":\"18014398509481986\","
                + "\"tier\":\"GOLD\"},{\"sku\":\"b\",\"quantity\":\"4\"}],\"totals\":{\"eu\":\"9007199254740993\","
                + "\"us\":\"7\"},\"tier\":\"SILVER\",\"shipTo\":{\"city\":\"Oslo\",\"lines\":[\"x\",\"y\"]},"
                + "\"big\":\"9007199254740994\",\"unsignedBig\":\"18446744073709551615\",\"price\":0.1,"
                + "\"note\":\"AQID\",\"placed\":\"2026-11-28T10:00:00Z\"}";
        for (HttpClient client : List.of(http1, h2c)) {
            HttpResponse<String> response = send(client, post("/grpc" + ORDERS + "Echo", order));
            assertThat(response.statusCode() + " " + response.body()).isEqualTo(expected);
            assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        }
    }

    @Test
    void typesFromADescriptorSetFileAndFromReflectionV1alpha() {
        assertThat(call(http1, "/file" + ORDERS + "Echo", "{\"id\": \"f\"}"))
                .isEqualTo("200 {\"id\":\"f\",\"big\":\"1\",\"unsignedBig\":\"1\"}");
        assertThat(call(h2c, "/legacy" + ORDERS + "Echo", "{\"id\": \"l\", \"big\": \"41\"}"))
                .isEqualTo("200 {\"id\":\"l\",\"big\":\"42\",\"unsignedBig\":\"1\"}");
    }

    @Test
    void unknownServicesAndMethodsAre404AndBadRequests400() {
        assertThat(call(http1, "/grpc/tollgate.test.Nothing/Echo", "{}"))
                .isEqualTo("404 {\"error\":{\"type\":\"not_found\",\"message\":\"no service tollgate.test.Nothing\"}}");
        assertThat(call(h2c, "/grpc" + ORDERS + "Nope", "{}")).isEqualTo(
                "404 {\"error\":{\"type\":\"not_found\",\"message\":\"tollgate.test.Orders has no method Nope\"}}");
        assertThat(call(http1, "/file/tollgate.test.Nothing/Echo", "{}")).startsWith("404 {\"error\":{\"type\":\"not_found\"");
        assertThat(call(http1, "/grpc/tollgate.test.Orders", "{}")).startsWith("404 {\"error\":{\"type\":\"not_found\"");
        assertThat(call(http1, "/grpc" + ORDERS + "Echo", "{\"id\": ")).startsWith("400 {\"error\":{\"type\":\"bad_request\"");
        assertThat(call(http1, "/grpc" + ORDERS + "Echo", "{\"big\": \"many\"}"))
                .startsWith("400 {\"error\":{\"type\":\"bad_request\",\"message\":\"the body is not a tollgate.test.Order");
        assertThat(call(h2c, "/grpc" + ORDERS + "Echo", "{\"colour\": 1}")).startsWith("400 {\"error\":{\"type\":\"bad_request\"");
        assertThat(call(h2c, "/grpc" + ORDERS + "Echo", "[1]")).startsWith("400 {\"error\":{\"type\":\"bad_request\"");
        assertThat(call(http1, "/grpc" + ORDERS + "Upload", "{}")).startsWith("400 {\"error\":{\"type\":\"bad_request\"");
        HttpRequest get = HttpRequest.newBuilder(post("/grpc" + ORDERS + "Echo", "{}"), (n, v) -> true).GET().build();
        HttpResponse<String> refused = send(http1, get);
        assertThat(refused.statusCode() + " " + refused.body())
                .isEqualTo("405 {\"error\":{\"type\":\"method_not_allowed\",\"message\":\"calls are POST requests\"}}");
    }

    @Test
    void everyGrpcStatusHasItsHttpStatusAndTheMessageWithoutAddresses() {
        Map<Integer, String> expected = Map.ofEntries(Map.entry(1, "499 CANCELLED"), Map.entry(2, "500 UNKNOWN"),
                Map.entry(3, "400 INVALID_ARGUMENT"), Map.entry(4, "504 DEADLINE_EXCEEDED"),
                Map.entry(5, "404 NOT_FOUND"), Map.entry(6, "409 ALREADY_EXISTS"),
                Map.entry(7, "403 PERMISSION_DENIED"), Map.entry(8, "429 RESOURCE_EXHAUSTED"),
                Map.entry(9, "400 FAILED_PRECONDITION"), Map.entry(10, "409 ABORTED"),
                Map.entry(11, "400 OUT_OF_RANGE"), Map.entry(12, "501 UNIMPLEMENTED"),
                Map.entry(13, "500 INTERNAL"), Map.entry(14, "503 UNAVAILABLE"), Map.entry(15, "500 DATA_LOSS"),
                Map.entry(16, "401 UNAUTHENTICATED"));
        String message = "provider 127.0.0.1:" + orders.port() + " says no: für immer";
        for (Map.Entry<Integer, String> status : expected.entrySet()) {
            String[] http = status.getValue().split(" ");
            String body = "{\"code\": " + status.getKey() + ", \"message\": \"" + message + "\"}";
            assertThat(call(status.getKey() % 2 == 0 ? http1 : h2c, "/grpc" + ORDERS + "Fail", body))
                    .isEqualTo(http[0] + " {\"error\":{\"type\":\"" + http[1]
                            + "\",\"message\":\"provider <address> says no: für immer\"}}");
        }
    }

    @Test
    void aCallPastTheRouteTimeoutIs504() {
        assertThat(call(http1, "/slow" + ORDERS + "Slow", "{\"millis\": 5000}")).startsWith("504 {\"error\":{\"type\":");
        assertThat(call(h2c, "/grpc" + ORDERS + "Slow", "{\"millis\": 1}")).isEqualTo("200 {}");
    }

    @Test
    void serverStreamingIsNewlineDelimitedJson() {
        for (HttpClient client : List.of(http1, h2c)) {
            HttpResponse<String> response = send(client, post("/grpc" + ORDERS + "Count", "{\"n\": 3}"));
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("content-type")).hasValue("application/x-ndjson");
            assertThat(response.body()).isEqualTo("{\"i\":1}\n{\"i\":2}\n{\"i\":3}\n");
        }
        assertThat(call(http1, "/grpc" + ORDERS + "Count", "{\"n\": 2, \"failWith\": 14}")).isEqualTo(
                "200 {\"i\":1}\n{\"i\":2}\n{\"error\":{\"type\":\"UNAVAILABLE\",\"message\":\"stopped\"}}\n");
        assertThat(call(h2c, "/grpc" + ORDERS + "Count", "{\"n\": 0, \"failWith\": 5}"))
                .isEqualTo("404 {\"error\":{\"type\":\"NOT_FOUND\",\"message\":\"stopped\"}}");
    }

    @Test
    void twoHundredConcurrentCallsShareFewUpstreamConnections() {
        assertThat(call(h2c, "/grpc" + ORDERS + "Echo", "{}")).startsWith("200 ");
        int before = orders.connections.get();
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            // HTTP/1.1: 200 client connections (an h2c client could open no more than the listener's stream limit)
            answers.add(http1.sendAsync(post("/grpc" + ORDERS + "Echo", "{\"id\": \"c" + i + "\", \"big\": " + i + "}"),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < 200; i++) {
            HttpResponse<String> response = answers.get(i).join();
            assertThat(response.statusCode() + " " + response.body())
                    .isEqualTo("200 {\"id\":\"c" + i + "\",\"big\":\"" + (i + 1) + "\",\"unsignedBig\":\"1\"}");
        }
        // one HTTP/2 connection per event loop at most
        assertThat(orders.connections.get() - before).isLessThanOrEqualTo(2);
    }
}
