package io.tollgate.protocols.json;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tollgate.protocols.hessian2.Hessian2Dialect;
import io.tollgate.protocols.hessian2.Hessian2Exception;
import io.tollgate.protocols.hessian2.Hessian2ValueReader;
import io.tollgate.protocols.hessian2.Hessian2ValueWriter;
import java.nio.charset.StandardCharsets;

/**
 * Fuzzes both directions of the JSON mapping: any bytes read as hessian2 (either dialect) into JSON,
 * and any text read as JSON written as any of a set of declared types (either object form). The
 * only exceptions expected are {@link Hessian2Exception} and {@link JsonMappingException}; a crash,
 * another exception, a hang (Jazzer's per-input timeout) or a leak is a failure.
 */
class Hessian2JsonFuzzTest {

    private static final String[] TYPES = {"java.lang.Object", "int", "long", "java.lang.Long", "double",
        "java.math.BigDecimal", "java.math.BigInteger", "java.lang.String", "char", "boolean", "byte[]",
        "java.util.Date", "int[]", "java.util.List<java.lang.Long>", "java.util.Set<java.lang.String>",
        "java.util.Map<java.lang.Long, java.math.BigDecimal>", "com.example.Bean", "com.example.Bean[]",
        "java.util.Map<java.lang.String, java.util.List<com.example.Bean>>"};

    @FuzzTest(maxDuration = "1m")
    void anyHessian2ReadsAsJsonOrIsRefused(byte[] input) {
        for (Hessian2Dialect dialect : Hessian2Dialect.values()) {
            ByteBuf buf = Unpooled.wrappedBuffer(input);
            try {
                Hessian2ValueReader reader = Hessian2ValueReader.of(buf, dialect);
                while (!reader.isAtEnd()) {
                    ExactJson.write(Hessian2ToJson.fromDubboGeneric(reader.read()));
                }
            } catch (Hessian2Exception expected) {
                // refused: the only way out besides a value
            } finally {
                buf.release();
            }
        }
    }

    @FuzzTest(maxDuration = "1m")
    void anyJsonIsWrittenAsAnyTypeOrIsRefused(FuzzedDataProvider data) {
        JavaType type = JavaType.parse(data.pickValue(TYPES));
        ObjectForm form = data.pickValue(ObjectForm.values());
        Hessian2Dialect dialect = data.pickValue(Hessian2Dialect.values());
        byte[] json = data.consumeRemainingAsString().getBytes(StandardCharsets.UTF_8);
        ByteBuf out = Unpooled.buffer();
        try {
            new JsonToHessian2(new Hessian2ValueWriter(out, dialect), form, TypeCatalog.EMPTY)
                    .write(ExactJson.parse(json), type, "$");
            Hessian2ValueReader reader = Hessian2ValueReader.of(out, dialect);
            reader.read();
        } catch (JsonMappingException expected) {
            // refused: a 400
        } finally {
            out.release();
        }
    }
}
