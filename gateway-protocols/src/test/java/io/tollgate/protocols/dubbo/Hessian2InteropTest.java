package io.tollgate.protocols.dubbo;

import static io.tollgate.protocols.rpc.RpcCodecFixtures.pooled;
import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.tollgate.protocols.rpc.RpcFrame;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks our hessian2 reader and writer against hessian-lite 4.0.4, the implementation Dubbo 3.3.6
 * serializes with: whatever it writes, we skip exactly or read equal; whatever we write, it reads.
 */
class Hessian2InteropTest {

    enum Colour { RED, GREEN }

    /** A class hessian writes as a class definition and compact objects. */
    static final class Point implements Serializable {
        private static final long serialVersionUID = 1L;
        final int x;
        final long y;
        final String label;
        final Colour colour;
        Point next;

        Point(int x, long y, String label, Colour colour) {
            this.x = x;
            this.y = y;
            this.label = label;
            this.colour = colour;
        }
    }

    /** A second class, so that objects refer to more than one definition. */
    static final class Shape implements Serializable {
        private static final long serialVersionUID = 1L;
        final List<Point> points = new ArrayList<>();
        final Map<String, Object> extras = new HashMap<>();
        final byte[] raw;
        final double[] weights;

        Shape(byte[] raw, double[] weights) {
            this.raw = raw;
            this.weights = weights;
        }
    }

    static Stream<Object> values() {
        Point origin = new Point(0, 0, "origin", Colour.RED);
        Point loop = new Point(1, -1, "loop", Colour.GREEN);
        loop.next = loop;
        Shape shape = new Shape(new byte[70_000], new double[] {0.0, 1.0, -128.0, 127.0, 32767.0, 1.5, Math.PI});
        shape.points.add(origin);
        shape.points.add(origin);
        shape.points.add(new Point(Integer.MAX_VALUE, Long.MIN_VALUE, "é中😀", Colour.GREEN));
        shape.extras.put("nested", List.of(Map.of("k", List.of(1, 2L, 3.0))));
        shape.extras.put("when", new Date(1_700_000_000_000L));
        shape.extras.put("minute", new Date(TimeUnit.MINUTES.toMillis(28_333_333)));
        List<Object> selfList = new ArrayList<>();
        selfList.add(selfList);
        Map<String, Object> linked = new LinkedHashMap<>();
        linked.put("a", 1);
        linked.put("b", new TreeMap<>(Map.of("z", "y")));
        return Stream.of(
                null, true, false,
                0, -16, 47, 48, -2048, 2047, -262144, 262143, Integer.MIN_VALUE, Integer.MAX_VALUE,
                0L, -8L, 15L, -2048L, 2047L, -262144L, 262143L, (long) Integer.MIN_VALUE, Long.MAX_VALUE,
                0.0, 1.0, -128.0, 127.0, -32768.0, 32767.0, 1.5, 12.25, Math.PI, Double.NaN,
                new Date(0), new Date(1_700_000_000_000L), new Date(TimeUnit.MINUTES.toMillis(1)),
                new byte[0], new byte[15], new byte[16], new byte[1023], new byte[1024], new byte[70_000],
                "", "a".repeat(31), "b".repeat(32), "c".repeat(1023), "d".repeat(1024), "e".repeat(70_000),
                "é中😀", "😀".repeat(20_000),
                new int[] {1, 2, 3}, new long[0], new String[] {"a", null, "b"}, new Object[] {1, "two", null},
                new ArrayList<>(List.of(1, "x")), selfList, new HashMap<>(Map.of("k", "v", "n", 1)), linked,
                new TreeMap<>(Map.of("t", 1)), Colour.GREEN, new BigDecimal("12345.6789"),
                origin, loop, shape, List.of(origin, origin, shape));
    }

    @ParameterizedTest
    @MethodSource("values")
    void skipsExactlyWhatHessianWrites(Object value) {
        byte[] bytes = hessian(out -> {
            out.writeObject(value);
            out.writeObject(value);
        });
        read(bytes, reader -> {
            reader.skipValue();
            reader.skipValue();
            assertThat(reader.isAtEnd()).isTrue();
        });
    }

    static Stream<String> strings() {
        return Stream.of("", "x", "a".repeat(31), "b".repeat(32), "c".repeat(1023), "d".repeat(1024),
                "e".repeat(0x8000), "f".repeat(0x8001), "g".repeat(70_000), "é中", "😀", "😀".repeat(20_000),
                "h".repeat(0x7fff) + "😀" + "i", "tollgate: no route");
    }

    @ParameterizedTest
    @MethodSource("strings")
    void readsTheStringsHessianWritesAndWritesThemAsHessianDoes(String value) {
        byte[] theirs = hessian(out -> out.writeString(value));
        read(theirs, reader -> {
            assertThat(reader.readString()).isEqualTo(value);
            assertThat(reader.isAtEnd()).isTrue();
        });

        ByteBuf ours = Unpooled.buffer();
        try {
            Hessian2Writer.writeString(ours, value);
            byte[] ourBytes = ByteBufUtil.getBytes(ours);
            assertThat(ourBytes).isEqualTo(theirs);
            Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(ourBytes));
            assertThat(in.readString()).isEqualTo(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            ours.release();
        }
    }

    @Test
    void writesNullAsHessianDoes() {
        ByteBuf ours = Unpooled.buffer();
        try {
            Hessian2Writer.writeString(ours, null);
            assertThat(ByteBufUtil.getBytes(ours)).isEqualTo(hessian(out -> out.writeObject(null)));
        } finally {
            ours.release();
        }
    }

    /** A request body written field by field as Dubbo's DubboCodec.encodeRequestData writes it. */
    @Test
    void readsTheRoutingViewOfACallWithArgumentsOfEveryKind() {
        Map<String, Object> attachments = new HashMap<>();
        attachments.put("interface", "demo.Shapes");
        attachments.put("version", "2.1");
        attachments.put("group", "blue");
        attachments.put("timeout", "1500");
        attachments.put("retries", 3);
        attachments.put("tags", List.of("a", "b"));
        attachments.put("point", new Point(5, 6, "p", Colour.RED));
        Object[] arguments = values().filter(v -> v != null).toArray();
        StringBuilder descriptor = new StringBuilder();
        for (int i = 0; i < arguments.length; i++) {
            descriptor.append(i % 2 == 0 ? "Ljava/lang/Object;" : "[[J");
        }
        byte[] body = hessian(out -> {
            out.writeString("2.0.2");
            out.writeString("demo.Shapes");
            out.writeString("2.1");
            out.writeString("draw");
            out.writeString(descriptor.toString());
            for (Object argument : arguments) {
                out.writeObject(argument);
            }
            out.writeObject(attachments);
        });
        DubboVectors.withFrame(pooled(DubboVectors.frame(0xc2, 0, 99, body)), frame -> {
            assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.REQUEST);
            assertThat(frame.service()).isEqualTo("demo.Shapes");
            assertThat(frame.method()).isEqualTo("draw");
            assertThat(frame.header("version")).isEqualTo("2.1");
            assertThat(frame.header("group")).isEqualTo("blue");
            assertThat(frame.timeoutMillis()).isEqualTo(1500);
            assertThat(frame.attachments()).isEqualTo(Map.of("interface", "demo.Shapes", "version", "2.1",
                    "group", "blue", "timeout", "1500"));
        });
    }

    private interface HessianWrites {
        void writeTo(Hessian2Output out) throws IOException;
    }

    private static byte[] hessian(HessianWrites writes) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(bytes);
        try {
            writes.writeTo(out);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void read(byte[] bytes, Consumer<Hessian2Reader> check) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            check.accept(new Hessian2Reader(buf, 0, bytes.length, DubboProtocol.MAX_HESSIAN2_DEPTH));
        } finally {
            buf.release();
        }
    }
}
