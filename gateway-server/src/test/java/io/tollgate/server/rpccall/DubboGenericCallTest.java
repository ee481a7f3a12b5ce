package io.tollgate.server.rpccall;

import static io.tollgate.server.rpccall.GenericCallFixture.answer;
import static io.tollgate.server.rpccall.GenericCallFixture.call;
import static io.tollgate.server.rpccall.GenericCallFixture.stopped;
import static io.tollgate.server.rpccall.RawExchange.canonical;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tollgate.protocols.dubbo.DubboCodec;
import io.tollgate.protocols.dubbo.DubboFrame;
import io.tollgate.protocols.generic.DubboGenericCalls;
import io.tollgate.protocols.generic.GenericCall;
import io.tollgate.protocols.json.TypeCatalog;
import io.tollgate.server.rpc.DubboRuntime;
import io.tollgate.server.testing.FreePort;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Dubbo generic calls written from JSON by the gateway's own codec, sent over a real socket to a
 * real Dubbo 3.3.6 provider of {@link OrderService} (group {@code shop}, version {@code 2.0}), typed
 * from the service definition Dubbo itself publishes, and their answers read back into JSON, checked
 * exactly.
 */
class DubboGenericCallTest {

    private static final String ORDER = """
            {"id":9007199254740993,"customer":"ann","amount":0.1,"status":"PAID",
             "items":[{"sku":"a-1","quantity":2,"price":19.99},{"sku":"b-2","quantity":1,"price":0.30}],
             "tags":{"gift":"yes"},"signature":"AQID","created":"2024-05-01T12:00:00Z"}""";

    private static final AtomicLong IDS = new AtomicLong();
    private static DubboRuntime runtime;
    private static OrderServiceImpl service;
    private static int port;

    @BeforeAll
    static void startProvider() {
        runtime = new DubboRuntime("generic-provider");
        port = FreePort.pick();
        ProtocolConfig protocol = new ProtocolConfig(runtime.application(), "dubbo", port);
        protocol.setHost("127.0.0.1");
        protocol.setSerialization("hessian2");
        service = new OrderServiceImpl();
        ServiceConfig<OrderService> config = new ServiceConfig<>(runtime.application().getDefaultModule());
        config.setInterface(OrderService.class);
        config.setRef(service);
        config.setGroup("shop");
        config.setVersion("2.0");
        runtime.bootstrap().protocol(protocol).service(config).start();
    }

    @AfterAll
    static void stopProvider() {
        runtime.close();
    }

    private static String send(GenericCall call) throws IOException {
        try (RawExchange exchange = new RawExchange(port)) {
            ByteBuf response = exchange.dubbo(DubboGenericCalls.request(ByteBufAllocator.DEFAULT, IDS.incrementAndGet(), call));
            try {
                DubboFrame frame = DubboCodec.DEFAULTS.decode(response);
                try {
                    return answer(DubboGenericCalls.reply(frame));
                } finally {
                    frame.release();
                }
            } finally {
                response.release();
            }
        }
    }

    private static String send(String method, String arguments) throws IOException {
        return send(call(method, arguments, "shop", "2.0", null));
    }

    @Test
    void aNestedBeanComesBackExactly() throws IOException {
        assertThat(send("echo", "[" + ORDER + "]")).isEqualTo("200 " + canonical(ORDER));
    }

    @Test
    void longsBigDecimalsAndBigIntegersStayExact() throws IOException {
        assertThat(send("nextId", "[9007199254740993]")).isEqualTo("200 9007199254740994");
        assertThat(send("total", "[[0.1, 0.2, 0.30]]")).isEqualTo("200 0.60");
        assertThat(send("square", "[123456789012345678901234567890]"))
                .isEqualTo("200 15241578753238836750495351562536198787501905199875019052100");
    }

    @Test
    void voidAndNullAnswerJsonNull() throws IOException {
        assertThat(send("forget", "[\"order-7\"]")).isEqualTo("200 null");
        assertThat(service.forgotten).isEqualTo("order-7");
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
    void overloadsAreChosenByTheJsonShape() throws IOException {
        assertThat(send("describe", "[\"x\"]")).isEqualTo("200 \"text x\"");
        assertThat(send("describe", "[5]")).isEqualTo("200 \"number 5\"");
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
    void anUnknownGroupOrServiceIsA404WithoutTheProvidersAddress() throws IOException {
        String wrongGroup = send(call("nextId", "[1]", "other", "2.0", null));
        assertThat(wrongGroup).startsWith("404 {\"error\":{\"type\":\"not_found\"");
        assertThat(wrongGroup).doesNotContain("127.0.0.1");
        GenericCall known = call("nextId", "[1]", "shop", "2.0", null);
        GenericCall unknownService = new GenericCall("com.example.Nope", "nextId", "shop", "2.0", null,
                known.parameterTypes(), known.arguments(), TypeCatalog.EMPTY, 5000);
        assertThat(send(unknownService)).startsWith("404 {\"error\":{\"type\":\"not_found\"");
    }

    @Test
    void callsThatCannotBeMadeStopBeforeTheWire() {
        assertThat(stopped(org.assertj.core.api.Assertions.catchRuntimeException(() -> call("nope", "[1]", "shop", "2.0", null))))
                .isEqualTo("404 {\"error\":{\"type\":\"not_found\",\"message\":\"the service has no method nope\"}}");
        assertThat(stopped(org.assertj.core.api.Assertions.catchRuntimeException(() -> call("nextId", "[1, 2]", "shop", "2.0", null))))
                .isEqualTo("400 {\"error\":{\"type\":\"bad_request\",\"message\":\"2 arguments for nextId(long)\"}}");
        assertThat(stopped(org.assertj.core.api.Assertions.catchRuntimeException(
                () -> DubboGenericCalls.request(ByteBufAllocator.DEFAULT, 1, call("nextId", "[\"abc\"]", "shop", "2.0", null)))))
                .isEqualTo("400 {\"error\":{\"type\":\"bad_request\",\"message\":\"$[0]: \\\"abc\\\" is no number (expected: a long)\"}}");
        assertThat(stopped(org.assertj.core.api.Assertions.catchRuntimeException(
                () -> DubboGenericCalls.request(ByteBufAllocator.DEFAULT, 1, call("nextId", "[9223372036854775808]", "shop", "2.0", null)))))
                .isEqualTo("400 {\"error\":{\"type\":\"bad_request\",\"message\":\"$[0]: 9223372036854775808 is out of range for a long\"}}");
    }
}
