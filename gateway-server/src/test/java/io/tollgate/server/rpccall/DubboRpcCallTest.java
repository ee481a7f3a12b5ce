package io.tollgate.server.rpccall;

import static io.tollgate.server.rpccall.RawExchange.canonical;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tollgate.server.rpc.DubboRuntime;
import io.tollgate.server.openapi.OpenApiSchema;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.testing.ZooKeeperServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.concurrent.CompletableFuture;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HTTP/JSON calls through the gateway's {@code rpc_call} route to a real Dubbo 3.3.6 provider of
 * {@link OrderService} (group {@code shop}, version {@code 2.0}) registered in a real ZooKeeper:
 * the gateway finds the provider and the service's definition (the parameter types) there, with
 * nothing configured per method, and lists them in the route's OpenAPI document. Clients are the
 * JDK's HttpClient over HTTP/1.1 and h2c; one
 * ZooKeeper, provider and gateway serve the whole class.
 */
class DubboRpcCallTest {

    private static final String INTERFACE = OrderService.class.getName();
    private static final String CONFIG = """
            registries:
              - { name: zk, type: zookeeper, ensemble: "${ZK}", connection_timeout: 5s }
            listeners:
              - name: http
                port: 0
                protocols: [http1, h2c]
                http2: { max_concurrent_streams: 2000 }
                route_config:
                  virtual_hosts:
                    - name: calls
                      domains: ["*"]
                      routes:
                        - match: { prefix: /slow/ }
                          rpc_call: { protocol: dubbo, cluster: orders, timeout: 500ms }
                        - match: { prefix: /nobody/ }
                          rpc_call:
                            protocol: dubbo
                            cluster: nobody
                            methods:
                              com.example.Nobody:
                                - { name: go, parameter_types: [long] }
                                - { name: find, parameter_types: ["java.util.Map<java.lang.String, java.lang.Integer[]>"] }
                        - match: { prefix: /dubbo/ }
                          rpc_call: { protocol: dubbo, cluster: orders, timeout: 5s }
                        - match: { prefix: /many/ }
                          rpc_call: { protocol: dubbo, cluster: orders, timeout: 60s }
                        - match: { prefix: /any/ }
                          rpc_call: { protocol: dubbo, cluster: dubbo-services, timeout: 5s }
            clusters:
              - name: dubbo-services
                discovery: { registry: zk, per_service: dubbo }
              - name: orders
                discovery: { registry: zk, dubbo: { interface: "${INTERFACE}", group: shop, version: "2.0" } }
              - name: nobody
                discovery: { registry: zk, dubbo: { interface: com.example.Nobody } }
            """;
    private static final String[] SHOP = {"x-rpc-group", "shop", "x-rpc-version", "2.0"};
    private static final String ORDER = """
            {"id":9007199254740993,"customer":"ann","amount":0.1,"status":"PAID",
             "items":[{"sku":"a-1","quantity":2,"price":19.99},{"sku":"b-2","quantity":1,"price":0.30}],
             "tags":{"gift":"yes"},"signature":"AQID","created":"2024-05-01T12:00:00Z"}""";

    private static ZooKeeperServer zookeeper;
    private static DubboRuntime provider;
    private static int providerPort;
    private static TestGateway gateway;
    private static JsonCallClient http1;
    private static JsonCallClient h2c;

    @BeforeAll
    static void start() throws Exception {
        zookeeper = ZooKeeperServer.start();
        provider = new DubboRuntime("rpc-call-provider", "interface");
        providerPort = FreePort.pick();
        ProtocolConfig protocol = new ProtocolConfig(provider.application(), "dubbo", providerPort);
        protocol.setHost("127.0.0.1");
        protocol.setSerialization("hessian2");
        protocol.setThreads(1200);
        RegistryConfig registry = new RegistryConfig(provider.application());
        registry.setAddress("zookeeper://" + zookeeper.ensemble());
        registry.setUseAsConfigCenter(false);
        ServiceConfig<OrderService> service = new ServiceConfig<>(provider.application().getDefaultModule());
        service.setInterface(OrderService.class);
        service.setRef(new OrderServiceImpl());
        service.setGroup("shop");
        service.setVersion("2.0");
        service.setWarmup(0);
        provider.bootstrap().registry(registry).protocol(protocol).service(service).start();
        gateway = TestGateway.start(CONFIG, Map.of("ZK", zookeeper.ensemble(), "INTERFACE", INTERFACE));
        String base = "http://127.0.0.1:" + gateway.port("http");
        http1 = new JsonCallClient(base, HttpClient.Version.HTTP_1_1);
        h2c = new JsonCallClient(base, HttpClient.Version.HTTP_2);
        Await.until("the provider and its service definition read from ZooKeeper", Duration.ofSeconds(30),
                () -> call(http1, "/dubbo/" + INTERFACE + "/nextId", "[1]", SHOP).equals("200 2"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        if (provider != null) {
            provider.close();
        }
        if (zookeeper != null) {
            zookeeper.close();
        }
    }

    private static String call(JsonCallClient client, String path, String body, String... headers) {
        try {
            return client.call(path, body, headers);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** "status body" with the body's object keys sorted, so that field order does not matter. */
    private static String canonicalAnswer(String answer) {
        return answer.substring(0, 4) + canonical(answer.substring(4));
    }

    private static String dubbo(JsonCallClient client, String method, String body) {
        return call(client, "/dubbo/" + INTERFACE + "/" + method, body, SHOP);
    }

    @Test
    void longsAndBigDecimalsStayExactOverHttp1AndH2c() {
        for (JsonCallClient client : List.of(http1, h2c)) {
            assertThat(dubbo(client, "nextId", "[9007199254740993]")).isEqualTo("200 9007199254740994");
            assertThat(dubbo(client, "total", "[[0.1, 0.2, 0.30]]")).isEqualTo("200 0.60");
            assertThat(dubbo(client, "square", "[123456789012345678901234567890]"))
                    .isEqualTo("200 15241578753238836750495351562536198787501905199875019052100");
        }
    }

    @Test
    void nestedObjectsVoidAndOverloads() {
        assertThat(canonicalAnswer(dubbo(h2c, "echo", "[" + ORDER + "]"))).isEqualTo("200 " + canonical(ORDER));
        assertThat(canonicalAnswer(dubbo(http1, "bySku",
                "[[{\"sku\":\"a\",\"quantity\":1,\"price\":1.5},{\"sku\":\"a\",\"quantity\":2,\"price\":2}]]")))
                .isEqualTo("200 " + canonical("{\"a\":[{\"sku\":\"a\",\"quantity\":1,\"price\":1.5},"
                        + "{\"sku\":\"a\",\"quantity\":2,\"price\":2}]}"));
        assertThat(dubbo(http1, "forget", "[\"order-7\"]")).isEqualTo("200 null");
        assertThat(dubbo(http1, "describe", "[\"x\"]")).isEqualTo("200 \"text x\"");
        assertThat(dubbo(http1, "describe", "[5]")).isEqualTo("200 \"number 5\"");
        // group and version as query parameters instead of headers
        assertThat(call(http1, "/dubbo/" + INTERFACE + "/nextId?x-rpc-group=shop&x-rpc-version=2.0", "[41]"))
                .isEqualTo("200 42");
    }

    @Test
    void aPerServiceTemplateFindsTheCallsServiceAndItsTypesInZooKeeper() throws Exception {
        String path = "/any/" + INTERFACE + "/nextId";
        Await.until("the service's cluster and definition made from the template", Duration.ofSeconds(30),
                () -> call(http1, path, "[1]", SHOP).equals("200 2"));
        assertThat(call(h2c, path, "[9007199254740993]", SHOP)).isEqualTo("200 9007199254740994");
        assertThat(canonicalAnswer(call(http1, "/any/" + INTERFACE + "/echo", "[" + ORDER + "]", SHOP)))
                .isEqualTo("200 " + canonical(ORDER));
    }

    @Test
    void requestErrorsAre400And404WithJsonBodies() {
        assertThat(dubbo(http1, "nextId", "[1")).startsWith("400 {\"error\":{\"type\":\"bad_request\"");
        assertThat(dubbo(http1, "nextId", "{\"id\":1}")).startsWith("400 {\"error\":{\"type\":\"bad_request\"");
        assertThat(dubbo(http1, "nextId", "[1, 2]")).startsWith("400 {\"error\":{\"type\":\"bad_request\"")
                .contains("nextId(long)");
        assertThat(dubbo(http1, "nextId", "[\"seven\"]")).startsWith("400 {\"error\":{\"type\":\"bad_request\"")
                .contains("$[0]");
        assertThat(call(http1, "/dubbo/" + INTERFACE + "/describe", "[5]", "x-rpc-group", "shop", "x-rpc-version",
                "2.0", "x-rpc-types", "double")).startsWith("400 {\"error\":{\"type\":\"bad_request\"")
                .contains("describe(java.lang.String)").contains("describe(int)");
        assertThat(dubbo(http1, "noSuchMethod", "[]")).startsWith("404 {\"error\":{\"type\":\"not_found\"");
        assertThat(call(http1, "/dubbo/" + INTERFACE, "[]", SHOP)).startsWith("404 {\"error\":{\"type\":\"not_found\"");
        String wrongGroup = call(http1, "/dubbo/" + INTERFACE + "/nextId", "[1]", "x-rpc-group", "other",
                "x-rpc-version", "2.0");
        assertThat(wrongGroup).startsWith("404 {\"error\":{\"type\":\"not_found\"").doesNotContain("127.0.0.1");
        String unknownService = call(http1, "/dubbo/com.example.Nope/nextId", "[1]", "x-rpc-types", "long");
        assertThat(unknownService).startsWith("404 {\"error\":{\"type\":\"not_found\"");
        assertThat(gateway.count("tollgate.downstream.rq.error", "reason", "rpc_call_bad_request")).isGreaterThanOrEqualTo(5);
    }

    @Test
    void aProviderExceptionIsA500WithoutTheProvidersAddress() {
        assertThat(dubbo(http1, "fail", "[\"out of stock\"]")).isEqualTo("500 {\"error\":{\"type\":"
                + "\"io.tollgate.server.rpccall.OrderException\",\"message\":\"out of stock\"}}");
        String crash = dubbo(h2c, "crash", "[\"provider 127.0.0.1:" + providerPort + " is tired\"]");
        assertThat(crash).isEqualTo("500 {\"error\":{\"type\":\"java.lang.IllegalStateException\","
                + "\"message\":\"provider <address> is tired\"}}");
    }

    @Test
    void noProviderIs503AndASlowMethodIs504AtTheRouteTimeout() throws Exception {
        HttpResponse<String> none = http1.exchange(http1.request("/nobody/com.example.Nobody/go", "[]",
                "x-rpc-types", "long"));
        assertThat(JsonCallClient.text(none)).isEqualTo(
                "503 {\"error\":{\"type\":\"unavailable\",\"message\":\"no healthy provider\"}}");
        assertThat(none.headers().firstValue("content-type")).hasValue("application/json");

        long start = System.nanoTime();
        String slow = call(http1, "/slow/" + INTERFACE + "/sleep", "[3000]", SHOP);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(slow).isEqualTo("504 {\"error\":{\"type\":\"timeout\",\"message\":\"the call timed out\"}}");
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(500)).isLessThan(Duration.ofMillis(2900));
        assertThat(call(http1, "/slow/" + INTERFACE + "/sleep", "[1]", SHOP)).isEqualTo("200 \"slept\"");
    }

    /**
     * {@code GET {prefix}/openapi.json} is a valid OpenAPI 3.1 document (the OpenAPI Initiative's
     * schema, Schema Objects included) of every method the provider published in ZooKeeper, typed
     * from its definition, with the error contract; for a route with no provider, of its configured
     * methods; for a per-service template, of the services it serves.
     */
    @Test
    void eachRoutesOpenApiDocumentListsItsMethodsTypedFromTheRegistry() throws Exception {
        JsonNode document = openApi(http1, "/dubbo/openapi.json");
        assertThat(OpenApiSchema.violations(document)).isEmpty();
        assertThat(document.path("openapi").asText()).isEqualTo("3.1.0");
        String prefix = "/dubbo/" + INTERFACE + "/";
        Set<String> names = Arrays.stream(OrderService.class.getMethods()).map(m -> prefix + m.getName())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(new TreeSet<>(names(document.path("paths")))).isEqualTo(names);

        assertThat(body(document, prefix + "nextId")).isEqualTo(json("""
                {"type":"array","minItems":1,"maxItems":1,"prefixItems":[{"type":"integer","format":"int64"}]}"""));
        assertThat(returned(document, prefix + "nextId")).isEqualTo(json("{\"type\":\"integer\",\"format\":\"int64\"}"));
        assertThat(body(document, prefix + "total").at("/prefixItems/0/items/type").toString())
                .isEqualTo("[\"number\",\"null\"]");
        assertThat(returned(document, prefix + "forget")).isEqualTo(json("{\"type\":\"null\"}"));
        assertThat(body(document, prefix + "reverse").at("/prefixItems/0/contentEncoding").asText()).isEqualTo("base64");
        assertThat(body(document, prefix + "dayAfter").at("/prefixItems/0/format").asText()).isEqualTo("date-time");
        assertThat(body(document, prefix + "describe").path("anyOf").findValuesAsText("format"))
                .containsExactly("int32");
        assertThat(body(document, prefix + "describe").path("anyOf")).hasSize(2);
        assertThat(body(document, prefix + "echo").at("/prefixItems/0/anyOf/0/$ref").asText())
                .isEqualTo("#/components/schemas/io.tollgate.server.rpccall.Order");
        JsonNode order = document.at("/components/schemas/io.tollgate.server.rpccall.Order/properties");
        assertThat(order.path("id")).isEqualTo(json("{\"type\":\"integer\",\"format\":\"int64\"}"));
        assertThat(order.at("/amount/type").toString()).isEqualTo("[\"number\",\"null\"]");
        assertThat(order.at("/status/anyOf/0/$ref").asText()).isEqualTo("#/components/schemas/io.tollgate.server.rpccall.Status");
        assertThat(document.at("/components/schemas/io.tollgate.server.rpccall.Status/enum").toString())
                .isEqualTo("[\"NEW\",\"PAID\"]");
        assertThat(order.at("/items/items/anyOf/0/$ref").asText()).isEqualTo("#/components/schemas/io.tollgate.server.rpccall.Item");
        assertThat(order.at("/tags/additionalProperties/type").toString()).isEqualTo("[\"string\",\"null\"]");
        assertThat(order.at("/signature/contentEncoding").asText()).isEqualTo("base64");
        assertThat(order.at("/created/format").asText()).isEqualTo("date-time");
        JsonNode responses = document.at("/paths/" + pointer(prefix + "fail") + "/post/responses");
        assertThat(names(responses)).containsExactly("200", "400", "404", "413", "500", "502", "503", "504");
        assertThat(document.at("/components/responses/ProviderException/content/application~1json/schema/$ref").asText())
                .isEqualTo("#/components/schemas/Error");

        JsonNode configured = openApi(h2c, "/nobody/openapi.json");
        assertThat(OpenApiSchema.violations(configured)).isEmpty();
        assertThat(names(configured.path("paths")))
                .containsExactly("/nobody/com.example.Nobody/go", "/nobody/com.example.Nobody/find");
        assertThat(body(configured, "/nobody/com.example.Nobody/find").at("/prefixItems/0/additionalProperties/items/type")
                .toString()).isEqualTo("[\"integer\",\"null\"]");
        assertThat(returned(configured, "/nobody/com.example.Nobody/go").has("type")).isFalse();

        Await.until("the template's cluster of the service", Duration.ofSeconds(30),
                () -> call(http1, "/any/" + INTERFACE + "/nextId", "[1]", SHOP).equals("200 2"));
        JsonNode template = openApi(http1, "/any/openapi.json");
        assertThat(OpenApiSchema.violations(template)).isEmpty();
        assertThat(template.at("/paths/" + pointer("/any/" + INTERFACE + "/nextId") + "/post/operationId").asText())
                .isEqualTo(INTERFACE + ".nextId");

        ObjectNode broken = document.deepCopy();
        broken.remove("info");
        ((ObjectNode) broken.at("/components/schemas/io.tollgate.server.rpccall.Item")).put("type", "decimal");
        assertThat(OpenApiSchema.violations(broken)).hasSizeGreaterThanOrEqualTo(2);
    }

    private static JsonNode openApi(JsonCallClient client, String path) throws Exception {
        HttpResponse<String> answer = client.exchange(client.get(path));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("content-type")).hasValue("application/json");
        return json(answer.body());
    }

    private static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> names(JsonNode object) {
        return object.properties().stream().map(Map.Entry::getKey).toList();
    }

    private static String pointer(String path) {
        return path.replace("~", "~0").replace("/", "~1");
    }

    private static JsonNode body(JsonNode document, String path) {
        return document.at("/paths/" + pointer(path) + "/post/requestBody/content/application~1json/schema");
    }

    private static JsonNode returned(JsonNode document, String path) {
        return document.at("/paths/" + pointer(path) + "/post/responses/200/content/application~1json/schema");
    }

    /**
     * A thousand calls at once, each on a client connection of its own (HTTP/1.1), all multiplexed
     * by the gateway on its few upstream connections to the provider: at most one per event loop.
     * Their route's timeout is long: a shared machine may take seconds to run a thousand calls of
     * the provider in this JVM, and what is checked here is the multiplexing, not the latency.
     */
    @Test
    void aThousandConcurrentCallsShareFewUpstreamConnections() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            answers.add(http1.send(http1.request("/many/" + INTERFACE + "/nextId", "[" + (9007199254740000L + i) + "]",
                    SHOP)));
        }
        for (int i = 0; i < 1000; i++) {
            assertThat(JsonCallClient.text(answers.get(i).get())).isEqualTo("200 " + (9007199254740001L + i));
        }
        assertThat(gateway.count("tollgate.upstream.cx.total", "cluster", "orders"))
                .isBetween(1.0, (double) Runtime.getRuntime().availableProcessors());
    }
}
