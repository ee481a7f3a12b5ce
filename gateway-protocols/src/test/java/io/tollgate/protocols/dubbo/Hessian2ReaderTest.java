package io.tollgate.protocols.dubbo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every byte form of the Hessian 2.0 serialization spec, built by hand, read or skipped by our reader. */
class Hessian2ReaderTest {

    private static final int DEPTH = DubboProtocol.MAX_HESSIAN2_DEPTH;
    /** Where the bytes under test start in their buffer, which holds zeros before and after them. */
    private static final int REGION = 4;

    static Stream<Arguments> strings() {
        return Stream.of(
                Arguments.of("empty compact", h().bytes(0x00), ""),
                Arguments.of("compact", h().bytes(0x05).utf8("hello"), "hello"),
                Arguments.of("compact of 31 chars", h().bytes(0x1f).utf8("a".repeat(31)), "a".repeat(31)),
                Arguments.of("medium of 32 chars", h().bytes(0x30, 0x20).utf8("b".repeat(32)), "b".repeat(32)),
                Arguments.of("medium of 1023 chars", h().bytes(0x33, 0xff).utf8("c".repeat(1023)), "c".repeat(1023)),
                Arguments.of("medium of 256 chars", h().bytes(0x31, 0x00).utf8("d".repeat(256)), "d".repeat(256)),
                Arguments.of("final chunk", h().bytes('S', 0x04, 0x00).utf8("e".repeat(1024)), "e".repeat(1024)),
                Arguments.of("empty final chunk", h().bytes('S', 0, 0), ""),
                Arguments.of("chunks ending with S", h().bytes('R', 0, 3).utf8("abc").bytes('S', 0, 2).utf8("de"), "abcde"),
                Arguments.of("chunks ending compact", h().bytes('R', 0, 1).utf8("a").bytes('R', 0, 1).utf8("b")
                        .bytes(0x01).utf8("c"), "abc"),
                Arguments.of("chunks ending medium", h().bytes('R', 0, 1).utf8("a").bytes(0x30, 0x21)
                        .utf8("f".repeat(33)), "a" + "f".repeat(33)),
                Arguments.of("two-byte UTF-8", h().bytes(0x02, 0xc3, 0xa9, 0xc3, 0xa8), "éè"),
                Arguments.of("three-byte UTF-8", h().bytes(0x01, 0xe4, 0xb8, 0xad), "中"),
                Arguments.of("a supplementary char as two 3-byte surrogates, as hessian's Java writer writes it",
                        h().bytes(0x02, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80), "😀"),
                Arguments.of("a supplementary char as 4-byte UTF-8, counted as its two chars",
                        h().bytes(0x03, 0xf0, 0x9f, 0x98, 0x80, 'x'), "😀x"),
                Arguments.of("null", h().bytes('N'), null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strings")
    void readsEveryStringForm(String form, Hessian2Bytes bytes, String expected) {
        read(bytes.toByteArray(), reader -> {
            assertThat(reader.readString()).isEqualTo(expected);
            assertThat(reader.isAtEnd()).isTrue();
        });
    }

    static Stream<Arguments> ints() {
        return Stream.of(
                Arguments.of(h().bytes(0x90), 0), Arguments.of(h().bytes(0x80), -16), Arguments.of(h().bytes(0xbf), 47),
                Arguments.of(h().bytes(0xc8, 0x00), 0), Arguments.of(h().bytes(0xc0, 0x00), -2048),
                Arguments.of(h().bytes(0xcf, 0xff), 2047), Arguments.of(h().bytes(0xc7, 0xff), -1),
                Arguments.of(h().bytes(0xd4, 0x00, 0x00), 0), Arguments.of(h().bytes(0xd0, 0x00, 0x00), -262144),
                Arguments.of(h().bytes(0xd7, 0xff, 0xff), 262143), Arguments.of(h().bytes(0xd3, 0xff, 0xff), -1),
                Arguments.of(h().bytes('I', 0x00, 0x00, 0x01, 0x00), 256),
                Arguments.of(h().bytes('I', 0x80, 0x00, 0x00, 0x00), Integer.MIN_VALUE));
    }

    @ParameterizedTest
    @MethodSource("ints")
    void readsEveryIntForm(Hessian2Bytes bytes, int expected) {
        read(bytes.toByteArray(), reader -> {
            assertThat(reader.readInt()).isEqualTo(expected);
            assertThat(reader.isAtEnd()).isTrue();
        });
    }

    static Stream<Arguments> values() {
        return Stream.of(
                Arguments.of("null", h().bytes('N')),
                Arguments.of("true", h().bytes('T')),
                Arguments.of("false", h().bytes('F')),
                Arguments.of("one-octet int", h().bytes(0x90)),
                Arguments.of("two-octet int", h().bytes(0xc8, 0x01)),
                Arguments.of("three-octet int", h().bytes(0xd4, 0x00, 0x01)),
                Arguments.of("int", h().bytes('I', 0, 0, 0, 1)),
                Arguments.of("one-octet long", h().bytes(0xe0)),
                Arguments.of("two-octet long", h().bytes(0xf8, 0x01)),
                Arguments.of("three-octet long", h().bytes(0x3c, 0x00, 0x01)),
                Arguments.of("long as 32-bit int", h().bytes('Y', 0, 0, 0, 1)),
                Arguments.of("long", h().bytes('L', 0, 0, 0, 0, 0, 0, 0, 1)),
                Arguments.of("double 0.0", h().bytes(0x5b)),
                Arguments.of("double 1.0", h().bytes(0x5c)),
                Arguments.of("double as byte", h().bytes(0x5d, 0x80)),
                Arguments.of("double as short", h().bytes(0x5e, 0x00, 0x80)),
                Arguments.of("double as thousandths", h().bytes(0x5f, 0x00, 0x00, 0x05, 0xdc)),
                Arguments.of("double", h().bytes('D', 0x40, 0x28, 0x80, 0, 0, 0, 0, 0)),
                Arguments.of("date in milliseconds", h().bytes(0x4a, 0, 0, 0, 0xd0, 0x4b, 0x92, 0x84, 0xb8)),
                Arguments.of("date in minutes", h().bytes(0x4b, 0x00, 0xe3, 0x83, 0x8f)),
                Arguments.of("empty binary", h().bytes(0x20)),
                Arguments.of("short binary", h().bytes(0x23, 1, 2, 3)),
                Arguments.of("medium binary", h().bytes(0x34, 0x10).bytes(new byte[16])),
                Arguments.of("medium binary of 1023 bytes", h().bytes(0x37, 0xff).bytes(new byte[1023])),
                Arguments.of("final binary chunk", h().bytes('B', 0, 2, 1, 2)),
                Arguments.of("binary chunks", h().bytes('A', 0, 1, 1).bytes('A', 0, 1, 2).bytes('B', 0, 1, 3)),
                Arguments.of("binary chunk ending short", h().bytes('A', 0, 1, 1).bytes(0x21, 2)),
                Arguments.of("binary chunk ending medium", h().bytes('A', 0, 1, 1).bytes(0x34, 0x01, 2)),
                Arguments.of("compact string", h().bytes(0x02).utf8("hi")),
                Arguments.of("medium string", h().bytes(0x30, 0x20).utf8("x".repeat(32))),
                Arguments.of("chunked string", h().bytes('R', 0, 1).utf8("a").bytes('S', 0, 1).utf8("b")),
                Arguments.of("string of ASCII runs between multi-byte chars", h().bytes(0x08).utf8("ab中cdé😀")),
                Arguments.of("fixed typed list", h().bytes('V').string("[int").bytes(0x92, 0x90, 0x91)),
                Arguments.of("fixed list with a type ref", h().bytes('V', 0x90, 0x91, 0x90)),
                Arguments.of("variable typed list", h().bytes('U').string("java.util.ArrayList").bytes(0x90, 'N', 'Z')),
                Arguments.of("variable untyped list", h().bytes('W', 0x90, 0x02).utf8("hi").bytes('Z')),
                Arguments.of("empty variable untyped list", h().bytes('W', 'Z')),
                Arguments.of("fixed untyped list", h().bytes('X', 0x92, 'T', 'F')),
                Arguments.of("compact typed list", h().bytes(0x72).string("[string").string("a").string("b")),
                Arguments.of("empty compact typed list", h().bytes(0x70, 0x90)),
                Arguments.of("compact untyped list", h().bytes(0x7a, 0x90, 0x91)),
                Arguments.of("compact untyped list of 7", h().bytes(0x7f, 1, 'a', 'N', 'T', 'F', 0x90, 0x5b, 0xe0)),
                Arguments.of("untyped map", h().bytes('H', 0x91).string("one").bytes(0x92).string("two").bytes('Z')),
                Arguments.of("typed map", h().bytes('M').string("java.util.TreeMap").string("k").bytes('N', 'Z')),
                Arguments.of("typed map with a type ref", h().bytes('M', 0x90, 'Z')),
                Arguments.of("class definition and an object", h().bytes('C').string("example.Car").bytes(0x92)
                        .string("color").string("model").bytes(0x60).string("red").string("corvette")),
                Arguments.of("class definition and an 'O' object", h().bytes('C').string("example.Car").bytes(0x91)
                        .string("color").bytes('O', 0x90).string("green")),
                Arguments.of("object with no field", h().bytes('C').string("example.Unit").bytes(0x90, 0x60)),
                Arguments.of("ref", h().bytes(0x51, 0x90)),
                Arguments.of("ref as int", h().bytes(0x51, 'I', 0, 0, 1, 0)),
                Arguments.of("list of maps of lists with a ref", h().bytes('W', 'H').string("k")
                        .bytes(0x79, 0x51, 0x90).bytes('Z', 0x51, 0x91, 'Z')));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("values")
    void skipsEveryValueFormExactly(String form, Hessian2Bytes bytes) {
        byte[] value = bytes.toByteArray();
        byte[] followed = Arrays.copyOf(value, value.length + 2);
        followed[value.length] = 0x01;
        followed[value.length + 1] = 'x';
        read(followed, reader -> {
            reader.skipValue();
            assertThat(reader.index()).isEqualTo(REGION + value.length);
            assertThat(reader.readString()).isEqualTo("x");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("values")
    void failsCleanlyOnEveryTruncationOfAValue(String form, Hessian2Bytes bytes) {
        byte[] value = bytes.toByteArray();
        for (int length = 0; length < value.length; length++) {
            byte[] truncated = Arrays.copyOf(value, length);
            read(truncated, reader -> assertThat(catchThrowable(reader::skipValue))
                    .as("%s cut to %d bytes", form, truncated.length).isInstanceOf(DubboCodecException.class));
        }
    }

    @Test
    void keepsOneClassDefinitionTablePerBody() {
        byte[] bytes = h().bytes('C').string("A").bytes(0x91).string("a")
                .bytes('C').string("B").bytes(0x93).string("x").string("y").string("z")
                .bytes(0x61, 0x90, 0x91, 0x92)   // a B: three fields
                .bytes(0x60, 0x90)               // an A: one field
                .bytes('O', 0x91, 'N', 'N', 'N') // a B again
                .bytes(0x01).utf8("x")
                .toByteArray();
        read(bytes, reader -> {
            reader.skipValue();
            reader.skipValue();
            reader.skipValue();
            assertThat(reader.readString()).isEqualTo("x");
        });
        read(h().bytes(0x61).toByteArray(), reader -> assertThatThrownBy(reader::skipValue)
                .isInstanceOf(DubboCodecException.class).hasMessageContaining("class definition 1 (expected: 0..-1)"));
    }

    @Test
    void readsAMapOfStringsAndSkipsEveryOtherEntry() {
        byte[] bytes = h().bytes('H')
                .string("a").string("1")
                .bytes(0x91).string("int key")
                .string("b").bytes(0x92)
                .string("c").bytes('N')
                .string("a").string("repeated")
                .string("d").bytes('C').string("P").bytes(0x91).string("f").bytes(0x60, 0x90)
                .string("e").bytes('R', 0, 1).utf8("x").bytes(0x01).utf8("y")
                .bytes('Z')
                .toByteArray();
        read(bytes, reader -> {
            Map<String, String> map = reader.readStringMap();
            assertThat(map).isEqualTo(Map.of("a", "1", "e", "xy"));
            assertThatThrownBy(() -> map.put("f", "g")).isInstanceOf(UnsupportedOperationException.class);
            assertThat(reader.isAtEnd()).isTrue();
        });
        read(h().bytes('M').string("java.util.LinkedHashMap").string("k").string("v").bytes('Z').toByteArray(),
                reader -> assertThat(reader.readStringMap()).isEqualTo(Map.of("k", "v")));
        read(h().bytes('N').toByteArray(), reader -> assertThat(reader.readStringMap()).isEmpty());
    }

    @Test
    void skipsNestingUpToTheDepthLimitAndNotBeyond() {
        read(nestedLists(DEPTH), reader -> {
            reader.skipValue();
            assertThat(reader.isAtEnd()).isTrue();
        });
        read(nestedLists(DEPTH + 1), reader -> assertThatThrownBy(reader::skipValue)
                .isInstanceOf(DubboCodecException.class).hasMessageContaining("nested deeper than 64 levels"));
    }

    @Test
    void rejectsCodesThatAreNotValuesThere() {
        for (int code : new int[] {0x40, 0x45, 0x47, 0x50, 'Z'}) {
            read(h().bytes(code).toByteArray(), reader -> assertThatThrownBy(reader::skipValue)
                    .isInstanceOf(DubboCodecException.class)
                    .hasMessage("hessian2 at body offset 1: code 0x" + Integer.toHexString(code)
                            + " (expected: a value)"));
        }
        read(h().bytes('C').string("A").bytes(0x90, 'Z').toByteArray(), reader ->
                assertThatThrownBy(reader::skipValue).as("a class definition before no value")
                        .hasMessageContaining("code 0x5a"));
        read(h().bytes('X', 0x8f).toByteArray(), reader -> assertThatThrownBy(reader::skipValue)
                .hasMessageContaining("length -1 (expected: >= 0)"));
        read(h().bytes('A', 0, 1, 1, 0x01).toByteArray(), reader -> assertThatThrownBy(reader::skipValue)
                .hasMessageContaining("code 0x1 (expected: a binary chunk)"));
        read(h().bytes('R', 0, 1, 'a', 0x20).toByteArray(), reader -> assertThatThrownBy(reader::skipValue)
                .hasMessageContaining("code 0x20 (expected: a string chunk)"));
        read(h().bytes(0x90).toByteArray(), reader -> assertThatThrownBy(reader::readString)
                .hasMessageContaining("expected: a string or null"));
        read(h().bytes(0x01).toByteArray(), reader -> assertThatThrownBy(reader::readInt)
                .hasMessageContaining("expected: an int"));
    }

    @Test
    void rejectsBrokenUtf8() {
        byte[][] broken = {
            {0x01, (byte) 0x80}, {0x01, (byte) 0xc3, 0x41}, {0x01, (byte) 0xe4, (byte) 0xb8, 0x41},
            {0x01, (byte) 0xf0, (byte) 0x9f, (byte) 0x98, (byte) 0x80}, {0x02, (byte) 0xf4, (byte) 0x90, (byte) 0x80,
                (byte) 0x80}, {0x02, (byte) 0xf8, (byte) 0x80, (byte) 0x80, (byte) 0x80}};
        for (byte[] bytes : broken) {
            read(bytes, reader -> assertThat(catchThrowable(reader::readString)).as(Arrays.toString(bytes))
                    .isInstanceOf(DubboCodecException.class));
        }
    }

    /** Chars of several bytes leave fewer bytes than chars: the count must not lead the reader past its region. */
    @Test
    void skipsNoFurtherThanItsRegionWhenMultiByteCharsLeaveTooFewBytes() {
        read(h().bytes(0x03, 0xe4, 0xb8, 0xad).toByteArray(), reader -> assertThatThrownBy(reader::skipValue)
                .isInstanceOf(DubboCodecException.class).hasMessageContaining("1 bytes needed, 0 left"));
        read(h().bytes(0x04, 'a', 0xc3, 0xa9, 'b').toByteArray(), reader -> assertThatThrownBy(reader::skipValue)
                .isInstanceOf(DubboCodecException.class).hasMessageContaining("1 bytes needed, 0 left"));
    }

    @Test
    void readsOnlyItsRegionAndLeavesTheBufferIndicesAlone() {
        ByteBuf buf = Unpooled.wrappedBuffer(new byte[] {0x02, 'h', 'i', 0x01, 'x'});
        try {
            Hessian2Reader reader = new Hessian2Reader(buf, 0, 3, DEPTH);
            assertThat(reader.readString()).isEqualTo("hi");
            assertThat(reader.isAtEnd()).isTrue();
            assertThatThrownBy(reader::skipValue).isInstanceOf(DubboCodecException.class)
                    .hasMessage("hessian2 at body offset 3: value runs past the end of the body: 1 bytes needed, 0 left");
            assertThat(buf.readerIndex()).isZero();
            assertThat(buf.writerIndex()).isEqualTo(5);
        } finally {
            buf.release();
        }
    }

    private static byte[] nestedLists(int depth) {
        Hessian2Bytes bytes = h();
        for (int i = 0; i < depth; i++) {
            bytes.bytes('W');
        }
        for (int i = 0; i < depth; i++) {
            bytes.bytes('Z');
        }
        return bytes.toByteArray();
    }

    private static Hessian2Bytes h() {
        return new Hessian2Bytes();
    }

    private static void read(byte[] bytes, Consumer<Hessian2Reader> check) {
        ByteBuf buf = Unpooled.buffer(bytes.length + 2 * REGION).writeZero(REGION).writeBytes(bytes).writeZero(REGION);
        try {
            check.accept(new Hessian2Reader(buf, REGION, bytes.length, DEPTH));
        } finally {
            buf.release();
        }
    }
}
