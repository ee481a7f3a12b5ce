package io.tollgate.server.rpccall;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.sofa.rpc.config.ProviderConfig;
import com.alipay.sofa.rpc.config.ServerConfig;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.TestGateway;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HTTP/JSON calls through the gateway's {@code rpc_call} route to a real SOFARPC 5.13 provider of
 * {@link OrderService} (uniqueId {@code eu}), whose registry publishes no signatures: the types come
 * from the route's {@code methods} or from the client's {@code x-rpc-types}. One provider and one
 * gateway serve the whole class; clients are the JDK's HttpClient over HTTP/1.1 and h2c.
 */
class SofaRpcCallTest {

    private static final String CONFIG = """
            listeners:
              - name: http
                port: 0
                protocols: [http1, h2c]
                route_config:
                  virtual_hosts:
                    - name: calls
                      domains: ["*"]
                      routes:
                        - match: { prefix: /sofa }
                          rpc_call:
                            protocol: sofa
                            cluster: orders
                            timeout: 5s
                            methods:
                              io.tollgate.server.rpccall.OrderService:
                                - { name: nextId, parameter_types: [long] }
                                - { name: total, parameter_types: ["java.util.List<java.math.BigDecimal>"] }
                                - { name: describe, parameter_types: [java.lang.String] }
                                - { name: describe, parameter_types: [int] }
                                - { name: forget, parameter_types: [java.lang.String] }
                                - { name: fail, parameter_types: [java.lang.String] }
                                - { name: crash, parameter_types: [java.lang.String] }
            clusters:
              - name: orders
                endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
            """;
    private static final String ORDERS = "/" + OrderService.class.getName();
    private static final String[] EU = {"x-rpc-unique-id", "eu"};

    private static ProviderConfig<OrderService> provider;
    private static int port;
    private static TestGateway gateway;
    private static JsonCallClient http1;
    private static JsonCallClient h2c;

    @BeforeAll
    static void start() throws Exception {
        port = FreePort.pick();
        ServerConfig server = new ServerConfig().setProtocol("bolt").setHost("127.0.0.1").setBoundHost("127.0.0.1")
                .setVirtualHost("127.0.0.1").setPort(port).setDaemon(true);
        provider = new ProviderConfig<OrderService>().setInterfaceId(OrderService.class.getName())
                .setRef(new OrderServiceImpl()).setServer(server).setRegister(false).setUniqueId("eu")
                .setRepeatedExportLimit(8);
        provider.export();
        gateway = TestGateway.start(CONFIG, Map.of("PORT", port));
        String base = "http://127.0.0.1:" + gateway.port("http") + "/sofa";
        http1 = new JsonCallClient(base, HttpClient.Version.HTTP_1_1);
        h2c = new JsonCallClient(base, HttpClient.Version.HTTP_2);
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        provider.unExport();
        provider.getServer().get(0).destroy();
    }

    private static String call(JsonCallClient client, String path, String body, String... headers) {
        try {
            return client.call(path, body, headers);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void typesFromTheRouteKeepLongsAndDecimalsExact() {
        for (JsonCallClient client : List.of(http1, h2c)) {
            assertThat(call(client, ORDERS + "/nextId", "[9007199254740993]", EU)).isEqualTo("200 9007199254740994");
            assertThat(call(client, ORDERS + "/total", "[[0.1, 0.2, 0.30]]", EU)).isEqualTo("200 0.60");
        }
        assertThat(call(http1, ORDERS + "/describe", "[\"x\"]", EU)).isEqualTo("200 \"text x\"");
        assertThat(call(http1, ORDERS + "/describe", "[5]", EU)).isEqualTo("200 \"number 5\"");
        assertThat(call(http1, ORDERS + "/forget", "[\"order-9\"]", EU)).isEqualTo("200 null");
        // the uniqueId as a query parameter
        assertThat(call(http1, ORDERS + "/nextId?x-rpc-unique-id=eu", "[1]")).isEqualTo("200 2");
    }

    @Test
    void typesFromTheHeaderForAMethodTheRouteDoesNotList() {
        assertThat(call(h2c, ORDERS + "/nextId", "[9007199254740993]", "x-rpc-unique-id", "eu", "x-rpc-types", "long"))
                .isEqualTo("200 9007199254740994");
        assertThat(call(http1, ORDERS + "/reverse", "[\"AQID\"]", "x-rpc-unique-id", "eu", "x-rpc-types", "byte[]"))
                .isEqualTo("200 \"AwIB\"");
        assertThat(call(http1, ORDERS + "/describe", "[7]", "x-rpc-unique-id", "eu", "x-rpc-types", "int"))
                .isEqualTo("200 \"number 7\"");
    }

    @Test
    void theErrorContract() {
        assertThat(call(http1, ORDERS + "/describe", "[true]", EU)).startsWith("400 {\"error\":{\"type\":\"bad_request\"")
                .contains("describe(java.lang.String)").contains("describe(int)");
        assertThat(call(http1, ORDERS + "/bySku", "[[]]", EU)).startsWith("404 {\"error\":{\"type\":\"not_found\"");
        String wrongUniqueId = call(http1, ORDERS + "/nextId", "[1]", "x-rpc-unique-id", "us");
        assertThat(wrongUniqueId).startsWith("404 {\"error\":{\"type\":\"not_found\"").doesNotContain("127.0.0.1");
        assertThat(call(http1, ORDERS + "/fail", "[\"out of stock\"]", EU)).isEqualTo("500 {\"error\":{\"type\":"
                + "\"io.tollgate.server.rpccall.OrderException\",\"message\":\"out of stock\"}}");
        String crash = call(h2c, ORDERS + "/crash", "[\"provider 127.0.0.1:" + port + " is tired\"]", EU);
        assertThat(crash).isEqualTo("500 {\"error\":{\"type\":\"java.lang.IllegalStateException\","
                + "\"message\":\"provider <address> is tired\"}}");
        try {
            HttpRequest get = HttpRequest.newBuilder(http1.request(ORDERS + "/nextId", "[1]", EU), (n, v) -> true)
                    .GET().build();
            assertThat(JsonCallClient.text(http1.exchange(get)))
                    .isEqualTo("405 {\"error\":{\"type\":\"method_not_allowed\",\"message\":\"calls are POST requests\"}}");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
