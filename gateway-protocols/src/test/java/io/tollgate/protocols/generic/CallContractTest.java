package io.tollgate.protocols.generic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.tollgate.protocols.json.ExactJson;
import io.tollgate.protocols.json.JavaType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The HTTP side of a generic call: reading the request, choosing the overload, and the error body. */
class CallContractTest {

    private static final List<MethodCandidate> OVERLOADS = List.of(
            MethodCandidate.of("find", List.of("java.lang.String")),
            MethodCandidate.of("find", List.of("long")),
            MethodCandidate.of("find", List.of("java.util.Date")),
            MethodCandidate.of("list", List.of("java.util.List<com.example.Item>", "int")));

    private static JsonNode json(String text) {
        return ExactJson.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    private static CallError error(Runnable call) {
        return catchThrowableOfType(CallErrorException.class, call::run).error();
    }

    @Test
    void aRequestNamesServiceMethodGroupVersionAndTypes() {
        HttpCallRequest request = HttpCallRequest.parse("/dubbo", "POST",
                "/dubbo/com.example.Shop/find%5Fall?x-rpc-version=1.2&x-rpc-group=q",
                Map.of("x-rpc-group", "blue", "x-rpc-types", "java.util.Map<java.lang.String, java.lang.Long>, int[]")::get,
                "[{\"a\":1}, [1]]".getBytes(StandardCharsets.UTF_8));
        assertThat(request.service()).isEqualTo("com.example.Shop");
        assertThat(request.method()).isEqualTo("find_all");
        assertThat(request.group()).isEqualTo("blue");
        assertThat(request.version()).isEqualTo("1.2");
        assertThat(request.uniqueId()).isNull();
        assertThat(request.headerTypes()).extracting(JavaType::erasedName).containsExactly("java.util.Map", "int[]");
        assertThat(request.arguments().size()).isEqualTo(2);
    }

    @Test
    void badRequestsAreRefusedWithTheContractsStatus() {
        assertThat(error(() -> HttpCallRequest.parse("/dubbo", "GET", "/dubbo/a.B/m", name -> null, new byte[0])).status())
                .isEqualTo(405);
        assertThat(error(() -> HttpCallRequest.parse("/dubbo", "POST", "/dubbo/a.B", name -> null, "[]".getBytes())).status())
                .isEqualTo(404);
        assertThat(error(() -> HttpCallRequest.parse("/dubbo", "POST", "/dubbo/a.B/m", name -> null, "[1,".getBytes())))
                .extracting(CallError::status, CallError::type).containsExactly(400, "bad_request");
        assertThat(error(() -> HttpCallRequest.parse("/dubbo", "POST", "/dubbo/a.B/m", name -> null, "{}".getBytes()))
                .message()).isEqualTo("the body must be a JSON array of the arguments");
        assertThat(error(() -> HttpCallRequest.parse("/dubbo", "POST", "/dubbo/a.B/m", name -> null,
                "[{\"a\":1,\"a\":2}]".getBytes())).status()).isEqualTo(400);
    }

    @Test
    void overloadsAreChosenByArityThenShape() {
        assertThat(MethodChooser.choose("find", json("[12]"), OVERLOADS, List.of(), null))
                .containsExactly(JavaType.parse("long"));
        assertThat(MethodChooser.choose("list", json("[[], 3]"), OVERLOADS, List.of(), null))
                .extracting(JavaType::toString).containsExactly("java.util.List<com.example.Item>", "int");
        assertThat(error(() -> MethodChooser.choose("find", json("[\"x\"]"), OVERLOADS, List.of(), null)).message())
                .isEqualTo("ambiguous call, name the types in x-rpc-types: find(java.lang.String); find(java.util.Date)");
        assertThat(MethodChooser.choose("find", json("[\"x\"]"), OVERLOADS, List.of(), List.of(JavaType.parse("java.util.Date"))))
                .containsExactly(JavaType.parse("java.util.Date"));
        assertThat(error(() -> MethodChooser.choose("find", json("[true]"), OVERLOADS, List.of(), null)).message())
                .isEqualTo("the arguments fit no overload: find(java.lang.String); find(long); find(java.util.Date)");
        assertThat(error(() -> MethodChooser.choose("gone", json("[]"), OVERLOADS, List.of(), null)).status()).isEqualTo(404);
        assertThat(error(() -> MethodChooser.choose("find", json("[]"), List.of(), List.of(), null)).message())
                .contains("x-rpc-types");
    }

    @Test
    void errorBodiesAreJsonWithoutAddresses() {
        assertThat(CallError.providerException("com.example.Boom", "dubbo://10.0.0.7:20880/com.example.Shop failed on "
                + "/10.0.0.8:51234 -> [fe80::1]:20880, db.internal.example:3306, 2001:db8::1").toJson())
                .isEqualTo("{\"error\":{\"type\":\"com.example.Boom\",\"message\":\"<address>/com.example.Shop failed on "
                        + "/<address> -> <address>, <address>, <address>\"}}");
        assertThat(CallError.scrub("version 1.2.3 of order 42: total 10.5")).isEqualTo("version 1.2.3 of order 42: total 10.5");
    }

    @Test
    void typeNamesParseInEveryFormRegistriesWrite() {
        assertThat(JavaType.parse("[Ljava.lang.String;").erasedName()).isEqualTo("java.lang.String[]");
        assertThat(JavaType.parse("[[I").erasedName()).isEqualTo("int[][]");
        assertThat(JavaType.parse("java.util.Map<java.lang.String, java.util.List<? extends com.x.A>>").argument(1)
                .argument(0)).isEqualTo(JavaType.OBJECT);
        assertThat(JavaType.parse("com.x.Outer$Inner[]").erasedName()).isEqualTo("com.x.Outer$Inner[]");
    }
}
