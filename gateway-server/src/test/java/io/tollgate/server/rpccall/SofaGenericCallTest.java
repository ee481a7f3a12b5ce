package io.tollgate.server.rpccall;

import static io.tollgate.server.rpccall.GenericCallFixture.CATALOG;
import static io.tollgate.server.rpccall.GenericCallFixture.METHODS;
import static io.tollgate.server.rpccall.GenericCallFixture.answer;
import static io.tollgate.server.rpccall.RawExchange.canonical;
import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.sofa.rpc.config.ProviderConfig;
import com.alipay.sofa.rpc.config.ServerConfig;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tollgate.protocols.bolt.BoltCodec;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.generic.GenericCall;
import io.tollgate.protocols.generic.HttpCallRequest;
import io.tollgate.protocols.generic.MethodChooser;
import io.tollgate.protocols.generic.SofaGenericCalls;
import io.tollgate.protocols.hessian2.Hessian2Dialect;
import io.tollgate.protocols.json.ExactJson;
import io.tollgate.protocols.json.JavaType;
import io.tollgate.protocols.json.TypeCatalog;
import io.tollgate.server.testing.FreePort;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SOFARPC generic invocations written from JSON by the gateway's own codec, sent as Bolt frames over
 * a real socket to a real SOFARPC 5.13 provider of {@link OrderService} (uniqueId {@code eu}), typed
 * from configuration (the signatures and bean fields a route would list) or from the
 * {@code x-rpc-types} header, and their answers read back into JSON, checked exactly.
 */
class SofaGenericCallTest {

    private static final String ORDER = """
            {"id":9007199254740993,"customer":"ann","amount":0.1,"status":"PAID",
             "items":[{"sku":"a-1","quantity":2,"price":19.99},{"sku":"b-2","quantity":1,"price":0.30}],
             "tags":{"gift":"yes"},"signature":"AQID","created":"2024-05-01T12:00:00Z"}""";

    private static final AtomicLong IDS = new AtomicLong();
    private static ProviderConfig<OrderService> provider;
    private static OrderServiceImpl service;
    private static int port;

    @BeforeAll
    static void startProvider() {
        port = FreePort.pick();
        service = new OrderServiceImpl();
        ServerConfig server = new ServerConfig().setProtocol("bolt").setHost("127.0.0.1").setBoundHost("127.0.0.1")
                .setVirtualHost("127.0.0.1").setPort(port).setDaemon(true);
        provider = new ProviderConfig<OrderService>().setInterfaceId(OrderService.class.getName()).setRef(service)
                .setServer(server).setRegister(false).setUniqueId("eu").setRepeatedExportLimit(8);
        provider.export();
    }

    @AfterAll
    static void stopProvider() {
        provider.unExport();
        provider.getServer().get(0).destroy();
    }

    private static String send(GenericCall call) throws IOException {
        try (RawExchange exchange = new RawExchange(port)) {
            ByteBuf response = exchange.bolt(SofaGenericCalls.request(ByteBufAllocator.DEFAULT, IDS.incrementAndGet(),
                    call, Hessian2Dialect.DRAFT));
            try {
                BoltFrame frame = (BoltFrame) BoltCodec.DEFAULTS.decode(response);
                try {
                    return answer(SofaGenericCalls.reply(frame, Hessian2Dialect.DRAFT));
                } finally {
                    frame.release();
                }
            } finally {
                response.release();
            }
        }
    }

    /** A call typed from configuration: the route's method signatures and bean fields. */
    private static String send(String method, String arguments) throws IOException {
        JsonNode args = json(arguments);
        List<JavaType> types = MethodChooser.choose(method, args, List.of(), METHODS, null);
        return send(new GenericCall(OrderService.class.getName(), method, null, null, "eu", types, args, CATALOG, 5000));
    }

    /** A call typed by the client's {@code x-rpc-types} header alone, nothing known of the beans. */
    private static String sendWithHeader(String method, String typesHeader, String arguments) throws IOException {
        HttpCallRequest request = HttpCallRequest.parse("/sofa", "POST",
                "/sofa/" + OrderService.class.getName() + "/" + method + "?x-rpc-unique-id=eu",
                Map.of("x-rpc-types", typesHeader)::get, arguments.getBytes(StandardCharsets.UTF_8));
        List<JavaType> types = MethodChooser.choose(request.method(), request.arguments(), List.of(), List.of(),
                request.headerTypes());
        return send(new GenericCall(request.service(), request.method(), request.group(), request.version(),
                request.uniqueId(), types, request.arguments(), TypeCatalog.EMPTY, 5000));
    }

    private static JsonNode json(String text) {
        return ExactJson.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aNestedBeanComesBackExactly() throws IOException {
        assertThat(send("echo", "[" + ORDER + "]")).isEqualTo("200 " + canonical(ORDER));
    }

    @Test
    void longsBigDecimalsAndBigIntegersStayExact() throws IOException {
        assertThat(send("nextId", "[9007199254740993]")).isEqualTo("200 9007199254740994");
        assertThat(send("total", "[[0.1, 0.2, 0.30]]")).isEqualTo("200 0.60");
    }

    @Test
    void typesFromTheHeaderAlone() throws IOException {
        assertThat(sendWithHeader("nextId", "long", "[9007199254740993]")).isEqualTo("200 9007199254740994");
        assertThat(sendWithHeader("total", "java.util.List<java.math.BigDecimal>", "[[0.1, 0.2]]")).isEqualTo("200 0.3");
        assertThat(sendWithHeader("describe", "int", "[7]")).isEqualTo("200 \"number 7\"");
    }

    @Test
    void voidAndNullAnswerJsonNull() throws IOException {
        assertThat(send("forget", "[\"order-9\"]")).isEqualTo("200 null");
        assertThat(service.forgotten).isEqualTo("order-9");
        assertThat(send("nothing", "[]")).isEqualTo("200 null");
    }

    @Test
    void datesEnumsBytesAndMapsOfLists() throws IOException {
        assertThat(send("dayAfter", "[\"2024-05-01T12:00:00Z\"]")).isEqualTo("200 \"2024-05-02T12:00:00Z\"");
        assertThat(send("flip", "[\"NEW\"]")).isEqualTo("200 \"PAID\"");
        assertThat(send("reverse", "[\"AQID\"]")).isEqualTo("200 \"AwIB\"");
        assertThat(send("bySku", "[[{\"sku\":\"a\",\"quantity\":1,\"price\":1.5},{\"sku\":\"a\",\"quantity\":2,\"price\":2}]]"))
                .isEqualTo("200 " + canonical("{\"a\":[{\"sku\":\"a\",\"quantity\":1,\"price\":1.5},"
                        + "{\"sku\":\"a\",\"quantity\":2,\"price\":2}]}"));
    }

    @Test
    void aProviderExceptionIsA500WithItsClassAndMessageAndNoAddress() throws IOException {
        assertThat(send("fail", "[\"out of stock\"]")).isEqualTo("500 {\"error\":{\"type\":"
                + "\"io.tollgate.server.rpccall.OrderException\",\"message\":\"out of stock\"}}");
        String crash = send("crash", "[\"provider 127.0.0.1:" + port + " is tired\"]");
        assertThat(crash).isEqualTo("500 {\"error\":{\"type\":\"java.lang.IllegalStateException\","
                + "\"message\":\"provider <address> is tired\"}}");
        assertThat(crash).doesNotContain("127.0.0.1").doesNotContain(Integer.toString(port));
    }

    @Test
    void anUnknownServiceOrUniqueIdIsA404() throws IOException {
        GenericCall known = new GenericCall(OrderService.class.getName(), "nextId", null, null, "us",
                List.of(JavaType.parse("long")), json("[1]"), TypeCatalog.EMPTY, 5000);
        String wrongUniqueId = send(known);
        assertThat(wrongUniqueId).startsWith("404 {\"error\":{\"type\":\"not_found\"");
        assertThat(wrongUniqueId).doesNotContain("127.0.0.1");
    }
}
