package io.tollgate.protocols.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tollgate.protocols.hessian2.Hessian2Dialect;
import io.tollgate.protocols.hessian2.Hessian2Exception;
import io.tollgate.protocols.hessian2.Hessian2ValueReader;
import io.tollgate.protocols.hessian2.Hessian2ValueWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Our hessian2 values and JSON mapping against hessian-lite 4.0.4, the hessian Dubbo 3.3.6 runs:
 * what it writes we read into the exact JSON, what we write from JSON it reads into the classes.
 */
class HessianJsonInteropTest {

    enum Colour { RED, GREEN }

    static final class Line implements Serializable {
        private static final long serialVersionUID = 1L;
        String sku;
        long count;
        BigDecimal price;
        Colour colour;
        List<String> notes;
        byte[] data;
        Date when;
        Map<String, Integer> sizes;
    }

    private static byte[] hessianLite(Object value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(bytes);
        out.writeObject(value);
        out.flush();
        return bytes.toByteArray();
    }

    private static String json(byte[] hessian) {
        ByteBuf buf = Unpooled.wrappedBuffer(hessian);
        Hessian2ValueReader reader = Hessian2ValueReader.of(buf, Hessian2Dialect.FINAL);
        JsonNode node = Hessian2ToJson.toJson(reader.read());
        assertThat(reader.isAtEnd()).isTrue();
        return ExactJson.write(node);
    }

    private static Object readBack(String json, String type, ObjectForm form, Class<?> expected) throws IOException {
        return readBack(json, type, form, expected, TypeCatalog.EMPTY);
    }

    private static Object readBack(String json, String type, ObjectForm form, Class<?> expected, TypeCatalog catalog)
            throws IOException {
        ByteBuf out = Unpooled.buffer();
        new JsonToHessian2(new Hessian2ValueWriter(out, Hessian2Dialect.FINAL), form, catalog)
                .write(ExactJson.parse(json.getBytes(StandardCharsets.UTF_8)), JavaType.parse(type), "$");
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        return new Hessian2Input(new ByteArrayInputStream(bytes)).readObject(expected);
    }

    @Test
    void whatHessianLiteWritesReadsAsExactJson() throws IOException {
        Line line = new Line();
        line.sku = "é-1";
        line.count = 9007199254740993L;
        line.price = new BigDecimal("0.10");
        line.colour = Colour.GREEN;
        line.notes = new ArrayList<>(List.of("a", "x".repeat(40_000)));
        line.data = new byte[] {1, 2, 3};
        line.when = new Date(1714564800000L);
        line.sizes = new LinkedHashMap<>(Map.of("m", 2));
        // hessian-lite writes the fields in its own order: compared as trees, numbers by type and scale
        assertThat(ExactJson.parse(json(hessianLite(line)).getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(ExactJson.parse(("{\"sku\":\"é-1\",\"count\":9007199254740993,\"price\":0.10,"
                        + "\"colour\":\"GREEN\",\"notes\":[\"a\",\"" + "x".repeat(40_000) + "\"],"
                        + "\"data\":\"AQID\",\"when\":\"2024-05-01T12:00:00Z\",\"sizes\":{\"m\":2}}")
                        .getBytes(StandardCharsets.UTF_8)));
        assertThat(json(hessianLite(3.5d))).isEqualTo("3.5");
        assertThat(json(hessianLite(-129L))).isEqualTo("-129");
        assertThat(json(hessianLite(new java.math.BigInteger("123456789012345678901234567890"))))
                .isEqualTo("123456789012345678901234567890");
    }

    @Test
    void sharedValuesRepeatAndCyclesAreRefused() throws IOException {
        List<Object> shared = new ArrayList<>(List.of(1));
        assertThat(json(hessianLite(new ArrayList<>(List.of(shared, shared))))).isEqualTo("[[1],[1]]");
        List<Object> cyclic = new ArrayList<>();
        cyclic.add(cyclic);
        byte[] bytes = hessianLite(cyclic);
        assertThatThrownBy(() -> json(bytes)).isInstanceOf(Hessian2Exception.class).hasMessageContaining("cycle");
    }

    @Test
    void brokenHessianIsRefusedNotCrashedOn() throws IOException {
        byte[] whole = hessianLite(new ArrayList<>(List.of("abc", 1L << 40)));
        for (int length = 0; length < whole.length; length++) {
            byte[] cut = java.util.Arrays.copyOf(whole, length);
            assertThatThrownBy(() -> json(cut)).isInstanceOf(Hessian2Exception.class);
        }
        byte[] deep = new byte[200];
        java.util.Arrays.fill(deep, (byte) 'W');
        assertThatThrownBy(() -> json(deep)).isInstanceOf(Hessian2Exception.class).hasMessageContaining("deeper");
    }

    @Test
    void whatWeWriteFromJsonHessianLiteReadsIntoTheClass() throws IOException {
        TypeCatalog fields = new TypeCatalog(Map.of(Line.class.getName(), Map.of("sku", "java.lang.String",
                "count", "long", "notes", "java.util.List<java.lang.String>", "data", "byte[]",
                "sizes", "java.util.Map<java.lang.String, java.lang.Integer>")), java.util.Set.of());
        Line line = (Line) readBack("{\"sku\":\"a\",\"count\":9007199254740993,\"notes\":[\"n\"],\"data\":\"AQID\","
                + "\"sizes\":{\"m\":2}}", Line.class.getName(), ObjectForm.TYPED, Line.class, fields);
        assertThat(line.sku).isEqualTo("a");
        assertThat(line.count).isEqualTo(9007199254740993L);
        assertThat(line.notes).containsExactly("n");
        assertThat(line.data).containsExactly(1, 2, 3);
        assertThat(line.sizes).containsExactly(Map.entry("m", 2));
        assertThat(readBack("0.1", "java.math.BigDecimal", ObjectForm.MAP, BigDecimal.class)).isEqualTo(new BigDecimal("0.1"));
        assertThat(readBack("\"2024-05-01T12:00:00Z\"", "java.util.Date", ObjectForm.MAP, Date.class))
                .isEqualTo(new Date(1714564800000L));
        assertThat(readBack("\"GREEN\"", Colour.class.getName(), ObjectForm.TYPED, Colour.class)).isEqualTo(Colour.GREEN);
        assertThat(readBack("[1, 2]", "int[]", ObjectForm.TYPED, int[].class)).isEqualTo(new int[] {1, 2});
        assertThat(readBack("12345678901234567890.5", "java.lang.Object", ObjectForm.MAP, Object.class))
                .isEqualTo(new BigDecimal("12345678901234567890.5"));
    }

    @Test
    void valuesThatDoNotFitTheirTypeAreRefusedWithTheirPlace() {
        TypeCatalog catalog = new TypeCatalog(Map.of(Line.class.getName(), Map.of("count", "long")), java.util.Set.of());
        assertThatThrownBy(() -> readBack("{\"count\":1.5}", Line.class.getName(), ObjectForm.TYPED, Line.class, catalog))
                .isInstanceOf(JsonMappingException.class).hasMessage("$.count: 1.5 is not a whole number (expected: a long)");
        assertThatThrownBy(() -> readBack("[1, \"x\"]", "java.util.List<java.lang.Integer>", ObjectForm.MAP, Object.class))
                .isInstanceOf(JsonMappingException.class).hasMessage("$[1]: \"x\" is no number (expected: a java.lang.Integer)");
        assertThatThrownBy(() -> readBack("null", "int", ObjectForm.MAP, Object.class))
                .isInstanceOf(JsonMappingException.class).hasMessage("$: null for a int");
        assertThatThrownBy(() -> readBack("1e999999999", "long", ObjectForm.MAP, Object.class))
                .isInstanceOf(JsonMappingException.class).hasMessageContaining("digits");
        assertThatThrownBy(() -> readBack("128", "byte", ObjectForm.MAP, Object.class))
                .isInstanceOf(JsonMappingException.class).hasMessage("$: 128 is out of range for a byte");
    }
}
