package io.tollgate.protocols.json;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tollgate.protocols.hessian2.Hessian2Dialect;
import io.tollgate.protocols.hessian2.Hessian2Exception;
import io.tollgate.protocols.hessian2.Hessian2ValueReader;
import io.tollgate.protocols.hessian2.Hessian2ValueWriter;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * Fuzzes both directions of the JSON mapping of HTTP-to-RPC calls. The reader: any bytes, read as
 * hessian2 in either dialect, become JSON or are refused with {@link Hessian2Exception} (what a
 * provider's malformed answer gets: a 502). The writer: any bytes, read as a JSON body, are written
 * as one of a set of declared types (with a catalog of bean fields, in either object form and
 * dialect) or refused with {@link JsonMappingException} (a 400); what was written must read back
 * whole, every byte consumed, and become JSON. Any other exception, a hang (Jazzer's per-input
 * timeout) or a buffer left referenced is a failure. Seeds: real Dubbo and SOFARPC answers and
 * requests, and bodies of each type, in {@code Hessian2JsonFuzzTestInputs}; docs/fuzzing.md.
 */
class Hessian2JsonFuzzTest {

    private static final JavaType[] TYPES = Arrays.stream(new String[] {"java.lang.Object", "int", "long",
        "java.lang.Long", "double", "java.math.BigDecimal", "java.math.BigInteger", "java.lang.String", "char",
        "boolean", "byte[]", "java.util.Date", "int[]", "java.util.List<java.lang.Long>",
        "java.util.Set<java.lang.String>", "java.util.Map<java.lang.Long, java.math.BigDecimal>", "com.example.Bean",
        "com.example.Bean[]", "java.util.Map<java.lang.String, java.util.List<com.example.Bean>>", "com.example.Kind",
        "short", "byte", "float", "java.lang.Character", "java.time.LocalDate", "java.util.List<byte[]>"})
            .map(JavaType::parse).toArray(JavaType[]::new);
    /** What a service definition says of the beans: typed fields, nested beans, an enum. */
    private static final TypeCatalog CATALOG = new TypeCatalog(Map.of("com.example.Bean", Map.of(
            "id", "long", "amount", "java.math.BigDecimal", "kind", "com.example.Kind", "when", "java.util.Date",
            "data", "byte[]", "children", "java.util.List<com.example.Bean>", "tags",
            "java.util.Map<java.lang.String, java.lang.Integer>", "letter", "char")), Set.of("com.example.Kind"));

    @FuzzTest(maxDuration = "2m")
    void anyHessian2ReadsAsJsonOrIsRefused(byte[] input) {
        for (Hessian2Dialect dialect : Hessian2Dialect.values()) {
            ByteBuf buf = Unpooled.buffer(input.length).writeBytes(input);
            try {
                Hessian2ValueReader reader = Hessian2ValueReader.of(buf, dialect);
                while (!reader.isAtEnd()) {
                    Object value = reader.read();
                    ExactJson.write(Hessian2ToJson.fromDubboGeneric(value));
                    ExactJson.write(Hessian2ToJson.toJson(value));
                }
            } catch (Hessian2Exception expected) {
                // refused: the only way out besides values
            } finally {
                release(buf);
            }
        }
    }

    /**
     * The first byte picks the declared type, the second the object form and dialect; the rest is
     * the JSON body (UTF-8, or not).
     */
    @FuzzTest(maxDuration = "2m")
    void anyJsonIsWrittenAsAnyTypeOrIsRefused(byte[] input) {
        if (input.length < 2) {
            return;
        }
        JavaType type = TYPES[Byte.toUnsignedInt(input[0]) % TYPES.length];
        ObjectForm form = ObjectForm.values()[(input[1] & 1)];
        Hessian2Dialect dialect = Hessian2Dialect.values()[(input[1] >> 1 & 1)];
        byte[] json = Arrays.copyOfRange(input, 2, input.length);
        ByteBuf out = Unpooled.buffer();
        try {
            new JsonToHessian2(new Hessian2ValueWriter(out, dialect), form, CATALOG)
                    .write(ExactJson.parse(json), type, "$");
        } catch (JsonMappingException refused) {
            release(out);
            return;
        }
        try {
            Hessian2ValueReader reader = Hessian2ValueReader.of(out, dialect);
            ExactJson.write(Hessian2ToJson.fromDubboGeneric(reader.read()));
            if (!reader.isAtEnd()) {
                throw new AssertionError("a value written as " + type + " left bytes unread");
            }
        } finally {
            release(out);
        }
    }

    /** Releases the test's buffer, which nothing else may still hold. */
    private static void release(ByteBuf buf) {
        if (!buf.release()) {
            throw new AssertionError("a buffer is still referenced after the test's release: " + buf.refCnt());
        }
    }
}
