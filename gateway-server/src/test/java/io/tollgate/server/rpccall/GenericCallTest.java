package io.tollgate.server.rpccall;

import static io.tollgate.server.rpccall.GenericCallFixture.CATALOG;
import static io.tollgate.server.rpccall.GenericCallFixture.METHODS;
import static io.tollgate.server.rpccall.GenericCallFixture.answer;
import static io.tollgate.server.rpccall.GenericCallFixture.call;
import static io.tollgate.server.rpccall.GenericCallFixture.stopped;
import static io.tollgate.server.rpccall.RawExchange.canonical;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchRuntimeException;

import com.alipay.sofa.rpc.config.ProviderConfig;
import com.alipay.sofa.rpc.config.ServerConfig;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tollgate.protocols.bolt.BoltCodec;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.dubbo.DubboCodec;
import io.tollgate.protocols.dubbo.DubboFrame;
import io.tollgate.protocols.generic.DubboGenericCalls;
import io.tollgate.protocols.generic.GenericCall;
import io.tollgate.protocols.generic.HttpCallRequest;
import io.tollgate.protocols.generic.MethodChooser;
import io.tollgate.protocols.generic.SofaGenericCalls;
import io.tollgate.protocols.hessian2.Hessian2Dialect;
import io.tollgate.protocols.json.ExactJson;
import io.tollgate.protocols.json.JavaType;
import io.tollgate.protocols.json.TypeCatalog;
import io.tollgate.server.rpc.DubboRuntime;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.StartedResources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Generic calls written from JSON by the gateway's own codec, sent over a real socket to a real
 * provider of {@link OrderService} of each protocol, and their answers read back into JSON,
 * checked exactly: Dubbo generic calls to an Apache Dubbo 3.3.6 provider (group {@code shop},
 * version {@code 2.0}), typed from the service definition Dubbo itself publishes; SOFARPC generic
 * invocations as Bolt frames to a SOFARPC 5.13 provider (uniqueId {@code eu}), typed from
 * configuration (the signatures and bean fields a route would list) or from the
 * {@code x-rpc-types} header.
 */
class GenericCallTest {

    private static final String ORDER = """
            {"id":9007199254740993,"customer":"ann","amount":0.1,"status":"PAID",
             "items":[{"sku":"a-1","quantity":2,"price":19.99},{"sku":"b-2","quantity":1,"price":0.30}],
             "tags":{"gift":"yes"},"signature":"AQID","created":"2024-05-01T12:00:00Z"}""";

    /** The protocols of the providers called. */
    enum Rpc {
        DUBBO, SOFA
    }

    private static final AtomicLong IDS = new AtomicLong();
    private static final StartedResources started = new StartedResources();
    private static final OrderServiceImpl dubboService = new OrderServiceImpl();
    private static final OrderServiceImpl sofaService = new OrderServiceImpl();
    private static int dubboPort;
    private static int sofaPort;

    @BeforeAll
    static void startProviders() {
        DubboRuntime runtime = started.add(new DubboRuntime("generic-provider"));
        dubboPort = FreePort.pick();
        ProtocolConfig protocol = new ProtocolConfig(runtime.application(), "dubbo", dubboPort);
        protocol.setHost("127.0.0.1");
        protocol.setSerialization("hessian2");
        ServiceConfig<OrderService> config = new ServiceConfig<>(runtime.application().getDefaultModule());
        config.setInterface(OrderService.class);
        config.setRef(dubboService);
        config.setGroup("shop");
        config.setVersion("2.0");
        runtime.bootstrap().protocol(protocol).service(config).start();

        sofaPort = FreePort.pick();
        ServerConfig server = new ServerConfig().setProtocol("bolt").setHost("127.0.0.1").setBoundHost("127.0.0.1")
                .setVirtualHost("127.0.0.1").setPort(sofaPort).setDaemon(true);
        ProviderConfig<OrderService> provider = new ProviderConfig<OrderService>()
                .setInterfaceId(OrderService.class.getName()).setRef(sofaService).setServer(server).setRegister(false)
                .setUniqueId("eu").setRepeatedExportLimit(8);
        provider.export();
        started.add(() -> {
            provider.unExport();
            provider.getServer().get(0).destroy();
        });
    }

    @AfterAll
    static void stopProviders() {
        started.close();
    }

    @ParameterizedTest
    @EnumSource(Rpc.class)
    void aNestedBeanComesBackExactly(Rpc rpc) throws IOException {
        assertThat(send(rpc, "echo", "[" + ORDER + "]")).isEqualTo("200 " + canonical(ORDER));
    }

    @ParameterizedTest
    @EnumSource(Rpc.class)
    void longsBigDecimalsAndBigIntegersStayExact(Rpc rpc) throws IOException {
        assertThat(send(rpc, "nextId", "[9007199254740993]")).isEqualTo("200 9007199254740994");
        assertThat(send(rpc, "total", "[[0.1, 0.2, 0.30]]")).isEqualTo("200 0.60");
        if (rpc == Rpc.DUBBO) {
            assertThat(send(rpc, "square", "[123456789012345678901234567890]"))
                    .isEqualTo("200 15241578753238836750495351562536198787501905199875019052100");
        }
    }

    @ParameterizedTest
    @EnumSource(Rpc.class)
    void voidAndNullAnswerJsonNull(Rpc rpc) throws IOException {
        String order = "order-" + rpc;
        assertThat(send(rpc, "forget", "[\"" + order + "\"]")).isEqualTo("200 null");
        assertThat((rpc == Rpc.DUBBO ? dubboService : sofaService).forgotten).isEqualTo(order);
        assertThat(send(rpc, "nothing", "[]")).isEqualTo("200 null");
    }

    @ParameterizedTest
    @EnumSource(Rpc.class)
    void datesEnumsBytesAndMapsOfLists(Rpc rpc) throws IOException {
        assertThat(send(rpc, "dayAfter", "[\"2024-05-01T12:00:00Z\"]")).isEqualTo("200 \"2024-05-02T12:00:00Z\"");
        assertThat(send(rpc, "flip", "[\"NEW\"]")).isEqualTo("200 \"PAID\"");
        assertThat(send(rpc, "reverse", "[\"AQID\"]")).isEqualTo("200 \"AwIB\"");
        assertThat(send(rpc, "bySku", "[[{\"sku\":\"a\",\"quantity\":1,\"price\":1.5},{\"sku\":\"a\",\"quantity\":2,\"price\":2}]]"))
                .isEqualTo("200 " + canonical("{\"a\":[{\"sku\":\"a\",\"quantity\":1,\"price\":1.5},"
                        + "{\"sku\":\"a\",\"quantity\":2,\"price\":2}]}"));
    }

    @ParameterizedTest
    @EnumSource(Rpc.class)
    void aProviderExceptionIsA500WithItsClassAndMessageAndNoAddress(Rpc rpc) throws IOException {
        int port = rpc == Rpc.DUBBO ? dubboPort : sofaPort;
        assertThat(send(rpc, "fail", "[\"out of stock\"]")).isEqualTo("500 {\"error\":{\"type\":"
                + "\"io.tollgate.server.rpccall.OrderException\",\"message\":\"out of stock\"}}");
        String crash = send(rpc, "crash", "[\"provider 127.0.0.1:" + port + " is tired\"]");
        assertThat(crash).isEqualTo("500 {\"error\":{\"type\":\"java.lang.IllegalStateException\","
                + "\"message\":\"provider <address> is tired\"}}");
        assertThat(crash).doesNotContain("127.0.0.1").doesNotContain(Integer.toString(port));
    }

    @Test
    void dubboOverloadsAreChosenByTheJsonShape() throws IOException {
        assertThat(send(Rpc.DUBBO, "describe", "[\"x\"]")).isEqualTo("200 \"text x\"");
        assertThat(send(Rpc.DUBBO, "describe", "[5]")).isEqualTo("200 \"number 5\"");
    }

    @Test
    void anUnknownDubboGroupOrServiceIsA404WithoutTheProvidersAddress() throws IOException {
        String wrongGroup = sendDubbo(call("nextId", "[1]", "other", "2.0", null));
        assertThat(wrongGroup).startsWith("404 {\"error\":{\"type\":\"not_found\"");
        assertThat(wrongGroup).doesNotContain("127.0.0.1");
        GenericCall known = call("nextId", "[1]", "shop", "2.0", null);
        GenericCall unknownService = new GenericCall("com.example.Nope", "nextId", "shop", "2.0", null,
                known.parameterTypes(), known.arguments(), TypeCatalog.EMPTY, 5000);
        assertThat(sendDubbo(unknownService)).startsWith("404 {\"error\":{\"type\":\"not_found\"");
    }

    @Test
    void dubboCallsThatCannotBeMadeStopBeforeTheWire() {
        assertThat(stopped(catchRuntimeException(() -> call("nope", "[1]", "shop", "2.0", null))))
                .isEqualTo("404 {\"error\":{\"type\":\"not_found\",\"message\":\"the service has no method nope\"}}");
        assertThat(stopped(catchRuntimeException(() -> call("nextId", "[1, 2]", "shop", "2.0", null))))
                .isEqualTo("400 {\"error\":{\"type\":\"bad_request\",\"message\":\"2 arguments for nextId(long)\"}}");
        assertThat(stopped(catchRuntimeException(
                () -> DubboGenericCalls.request(ByteBufAllocator.DEFAULT, 1, call("nextId", "[\"abc\"]", "shop", "2.0", null)))))
                .isEqualTo("400 {\"error\":{\"type\":\"bad_request\",\"message\":\"$[0]: \\\"abc\\\" is no number (expected: a long)\"}}");
        assertThat(stopped(catchRuntimeException(
                () -> DubboGenericCalls.request(ByteBufAllocator.DEFAULT, 1, call("nextId", "[9223372036854775808]", "shop", "2.0", null)))))
                .isEqualTo("400 {\"error\":{\"type\":\"bad_request\",\"message\":\"$[0]: 9223372036854775808 is out of range for a long\"}}");
    }

    @Test
    void sofaTypesFromTheHeaderAlone() throws IOException {
        assertThat(sendSofaWithHeader("nextId", "long", "[9007199254740993]")).isEqualTo("200 9007199254740994");
        assertThat(sendSofaWithHeader("total", "java.util.List<java.math.BigDecimal>", "[[0.1, 0.2]]")).isEqualTo("200 0.3");
        assertThat(sendSofaWithHeader("describe", "int", "[7]")).isEqualTo("200 \"number 7\"");
    }

    @Test
    void anUnknownSofaServiceOrUniqueIdIsA404() throws IOException {
        GenericCall known = new GenericCall(OrderService.class.getName(), "nextId", null, null, "us",
                List.of(JavaType.parse("long")), json("[1]"), TypeCatalog.EMPTY, 5000);
        String wrongUniqueId = sendSofa(known);
        assertThat(wrongUniqueId).startsWith("404 {\"error\":{\"type\":\"not_found\"");
        assertThat(wrongUniqueId).doesNotContain("127.0.0.1");
    }

    /**
     * A call of {@code method} with {@code arguments}: to Dubbo typed from the service definition,
     * to SOFARPC typed from configuration (the route's method signatures and bean fields).
     */
    private static String send(Rpc rpc, String method, String arguments) throws IOException {
        return switch (rpc) {
            case DUBBO -> sendDubbo(call(method, arguments, "shop", "2.0", null));
            case SOFA -> {
                JsonNode args = json(arguments);
                List<JavaType> types = MethodChooser.choose(method, args, List.of(), METHODS, null);
                yield sendSofa(new GenericCall(OrderService.class.getName(), method, null, null, "eu", types, args,
                        CATALOG, 5000));
            }
        };
    }

    private static String sendDubbo(GenericCall call) throws IOException {
        try (RawExchange exchange = new RawExchange(dubboPort)) {
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

    private static String sendSofa(GenericCall call) throws IOException {
        try (RawExchange exchange = new RawExchange(sofaPort)) {
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

    /** A SOFARPC call typed by the client's {@code x-rpc-types} header alone, nothing known of the beans. */
    private static String sendSofaWithHeader(String method, String typesHeader, String arguments) throws IOException {
        HttpCallRequest request = HttpCallRequest.parse("/sofa", "POST",
                "/sofa/" + OrderService.class.getName() + "/" + method + "?x-rpc-unique-id=eu",
                Map.of("x-rpc-types", typesHeader)::get, arguments.getBytes(StandardCharsets.UTF_8));
        List<JavaType> types = MethodChooser.choose(request.method(), request.arguments(), List.of(), List.of(),
                request.headerTypes());
        return sendSofa(new GenericCall(request.service(), request.method(), request.group(), request.version(),
                request.uniqueId(), types, request.arguments(), TypeCatalog.EMPTY, 5000));
    }

    private static JsonNode json(String text) {
        return ExactJson.parse(text.getBytes(StandardCharsets.UTF_8));
    }
}
