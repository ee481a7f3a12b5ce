package io.tollgate.protocols.dubbo;

import static io.tollgate.protocols.dubbo.DubboVectors.ECHO_ID;
import static io.tollgate.protocols.dubbo.DubboVectors.ECHO_REQUEST;
import static io.tollgate.protocols.dubbo.DubboVectors.frame;
import static io.tollgate.protocols.dubbo.DubboVectors.read;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.pooled;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tollgate.protocols.rpc.RpcCodecException;
import io.tollgate.protocols.rpc.RpcCodecFixtures;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DubboDecoderMalformedTest {

    /** Offset in the echo request's body where the attachments map starts, right after the argument. */
    private static final int ECHO_ATTACHMENTS_OFFSET = 0x43 - DubboProtocol.HEADER_LENGTH;

    static Stream<Arguments> malformedFrames() {
        return Stream.of(
                Arguments.of("an HTTP request", "GET / HTTP/1.1\r\n\r\n".getBytes(US_ASCII), null, false,
                        "magic 0x4745 (expected: 0xdabb)"),
                Arguments.of("a first byte alone that is not 0xda", new byte[] {0x16}, null, false, "magic 0x16.."),
                Arguments.of("a bad second magic byte", echoWith(1, 0xbc), null, false, "magic 0xdabc"),
                Arguments.of("a negative body length", echoWith(12, 0x80), ECHO_ID, true,
                        "body length -2147483497 (expected: 0..8388608)"),
                Arguments.of("a body length over the default payload limit", echoWith(12, 0x00, 0x80, 0x00, 0x01),
                        ECHO_ID, true, "body length 8388609"),
                Arguments.of("a oneway request over the limit", echoWith(2, 0x82, 0, 0, 0, 0, 0, 0, 0, 0, 0x09, 0x7f),
                        9L, false, "body length 2130706583"),
                Arguments.of("a response over the limit", echoWith(2, 0x02, 0x14, 0, 0, 0, 0, 0, 0, 0, 7, 0x7f),
                        7L, false, "body length 2130706583"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedFrames")
    void raisesACodecErrorThenDiscardsTheConnectionWithoutHurtingAnother(String what, byte[] bad, Long requestId,
            boolean expectsResponse, String message) {
        EmbeddedChannel broken = DubboVectors.channel();
        EmbeddedChannel healthy = DubboVectors.channel();
        try {
            DubboCodecException error = catchThrowableOfType(DubboCodecException.class,
                    () -> broken.writeInbound(pooled(bad)));

            assertThat(error).as(what).isNotNull().isInstanceOf(RpcCodecException.class).hasMessageContaining(message);
            assertThat(error.rpcRequestId())
                    .isEqualTo(requestId == null ? OptionalLong.empty() : OptionalLong.of(requestId));
            assertThat(error.expectsResponse()).isEqualTo(expectsResponse);
            assertThat(error.replyForm()).isEqualTo(requestId == null ? 0 : DubboProtocol.SERIALIZATION_HESSIAN2);
            broken.writeInbound(pooled(read(ECHO_REQUEST)));
            assertThat(broken.inboundMessages()).isEmpty();
            healthy.writeInbound(pooled(read(ECHO_REQUEST)));
            assertThat(RpcCodecFixtures.reduce(healthy)).hasSize(1);
        } finally {
            broken.finishAndReleaseAll();
            healthy.finishAndReleaseAll();
        }
    }

    @Test
    void deliversTheFramesBeforeAMalformedOneInTheSameRead() {
        byte[] echo = read(ECHO_REQUEST);
        byte[] twoFrames = Arrays.copyOf(echo, echo.length * 2);
        System.arraycopy(echoWith(0, 0xca), 0, twoFrames, echo.length, echo.length);
        EmbeddedChannel channel = DubboVectors.channel();
        try {
            assertThat(catchThrowable(() -> channel.writeInbound(pooled(twoFrames))))
                    .isInstanceOf(DubboCodecException.class);
            assertThat(RpcCodecFixtures.reduce(channel)).hasSize(1);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    static Stream<Arguments> malformedBodies() {
        return Stream.of(
                Arguments.of("an empty body", new byte[0], "0 left"),
                Arguments.of("an int where the dubbo version belongs", new Hessian2Bytes().bytes(0x90).toByteArray(),
                        "code 0x90 (expected: a string or null)"),
                Arguments.of("a descriptor that is not one", Hessian2Bytes.call("s", "m", "Q").toByteArray(),
                        "parameter descriptor \"Q\""),
                Arguments.of("an unterminated class type", Hessian2Bytes.call("s", "m", "Ljava/lang").toByteArray(),
                        "a class type without name"),
                Arguments.of("an array without element type", Hessian2Bytes.call("s", "m", "I[").toByteArray(),
                        "an array without element type"),
                Arguments.of("an argument missing", Hessian2Bytes.call("s", "m", "II").bytes(0x91).toByteArray(),
                        "1 bytes needed, 0 left"),
                Arguments.of("a string longer than the body", Hessian2Bytes.call("s", "m", "Ljava/lang/String;")
                        .bytes(0x05, 'a').toByteArray(), "string of 5 chars in 1 bytes"),
                Arguments.of("a fixed list of two billion values", Hessian2Bytes.call("s", "m", "I")
                        .bytes('X', 'I', 0x7f, 0xff, 0xff, 0xff, 0x90).toByteArray(), "2147483647 values in 1 bytes"),
                Arguments.of("an object of an undefined class", Hessian2Bytes.call("s", "m", "I").bytes(0x60)
                        .toByteArray(), "object of class definition 0 (expected: 0..-1)"),
                Arguments.of("lists nested 100 deep", Hessian2Bytes.call("s", "m", "I").bytes(repeat('W', 100))
                        .toByteArray(), "values nested deeper than 64 levels"),
                Arguments.of("a reserved code", Hessian2Bytes.call("s", "m", "I").bytes(0x40).toByteArray(),
                        "code 0x40 (expected: a value)"),
                Arguments.of("a list terminator where a value belongs", Hessian2Bytes.call("s", "m", "I")
                        .bytes('Z').toByteArray(), "code 0x5a (expected: a value)"),
                Arguments.of("broken UTF-8", Hessian2Bytes.call("s", "m", "").bytes('H', 0x01, 0xff).toByteArray(),
                        "byte 0xff at the start of a char"),
                Arguments.of("an attachments map without its end", Hessian2Bytes.call("s", "m", "").bytes('H')
                        .string("k").string("v").toByteArray(), "1 bytes needed, 0 left"),
                Arguments.of("a list where the attachments belong", Hessian2Bytes.call("s", "m", "").bytes('W', 'Z')
                        .toByteArray(), "code 0x57 (expected: a map or null)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedBodies")
    void raisesACodecErrorWithTheRequestIdWhenTheRoutingViewIsRead(String what, byte[] body, String message) {
        List<Consumer<DubboFrame>> reads = List.of(DubboFrame::service, DubboFrame::method, f -> f.header("group"),
                DubboFrame::attachments, DubboFrame::invocation);
        for (Consumer<DubboFrame> view : reads) {
            DubboVectors.withFrame(pooled(frame(0xc2, 0, 41, body)), frame -> {
                DubboCodecException first = catchThrowableOfType(DubboCodecException.class, () -> view.accept(frame));
                assertThat(first).as(what).isNotNull().hasMessageContaining(message).hasMessageContaining("request id 41");
                assertThat(first.rpcRequestId()).hasValue(41);
                assertThat(first.expectsResponse()).isTrue();
                assertThat(first.replyForm()).isEqualTo(DubboProtocol.SERIALIZATION_HESSIAN2);
                assertThat(catchThrowable(frame::service)).as("read once, failed once").isSameAs(first);
                assertThat(frame.timeoutMillis()).as("throws nothing").isZero();
            });
        }
    }

    @Test
    void saysAOnewayCallerWaitsForNoAnswerToItsBrokenBody() {
        DubboVectors.withFrame(pooled(frame(0x82, 0, 42, new byte[] {0x40})), frame -> {
            DubboCodecException error = catchThrowableOfType(DubboCodecException.class, frame::method);
            assertThat(error.rpcRequestId()).hasValue(42);
            assertThat(error.expectsResponse()).isFalse();
        });
    }

    /** A body cut anywhere fails cleanly, except right after the argument, where the attachments are optional. */
    @Test
    void readsEveryTruncationOfTheEchoBodyAsACodecErrorOrAsACallWithoutAttachments() {
        byte[] echo = read(ECHO_REQUEST);
        byte[] body = Arrays.copyOfRange(echo, DubboProtocol.HEADER_LENGTH, echo.length);
        List<Integer> readable = new ArrayList<>();
        for (int length = 0; length < body.length; length++) {
            int cut = length;
            DubboVectors.withFrame(pooled(frame(0xc2, 0, 1, Arrays.copyOf(body, cut))), frame -> {
                Throwable error = catchThrowable(frame::service);
                if (error == null) {
                    readable.add(cut);
                    assertThat(frame.attachments()).isEmpty();
                    assertThat(frame.service()).isEqualTo("demo.Echoer");
                } else {
                    assertThat(error).as("cut at %d", cut).isInstanceOf(DubboCodecException.class);
                }
            });
        }
        assertThat(readable).containsExactly(ECHO_ATTACHMENTS_OFFSET);
    }

    /**
     * Every byte of the echo body replaced by codes that open structures, refer to tables or start
     * long values: the routing view reads or fails with a codec error, never another exception.
     */
    @Test
    void neverThrowsAnythingButACodecErrorForAMutatedBody() {
        byte[] echo = read(ECHO_REQUEST);
        int[] codes = {0x00, 0x1f, 0x33, 0x37, 0x3f, 'A', 'B', 'C', 'D', 'H', 'I', 'L', 'M', 'O', 'Q', 'R', 'S', 'U',
                'V', 'W', 'X', 'Z', 0x5f, 0x6f, 0x77, 0x7f, 0xbf, 0xcf, 0xd7, 0xef, 0xff};
        int failures = 0;
        for (int offset = DubboProtocol.HEADER_LENGTH; offset < echo.length; offset++) {
            for (int code : codes) {
                byte[] mutated = echo.clone();
                mutated[offset] = (byte) code;
                failures += readRoutingView(mutated) ? 0 : 1;
            }
        }
        assertThat(failures).isPositive();
    }

    @Test
    void neverThrowsAnythingButACodecErrorForRandomBodies() {
        Random random = new Random(20_251_124);
        for (int i = 0; i < 2_000; i++) {
            byte[] prefix = Hessian2Bytes.call("s", "m", "Ljava/lang/Object;I[J").toByteArray();
            byte[] body = Arrays.copyOf(prefix, prefix.length + random.nextInt(64));
            for (int at = prefix.length; at < body.length; at++) {
                body[at] = (byte) random.nextInt(256);
            }
            readRoutingView(frame(0xc2, 0, i, body));
        }
    }

    /** Decodes {@code bytes} and reads the routing view; true when it read, false on a codec error. */
    private static boolean readRoutingView(byte[] bytes) {
        ByteBuf in = pooled(bytes);
        DubboFrame frame = DubboCodec.DEFAULTS.decode(in);
        in.release();
        try {
            frame.invocation();
            return true;
        } catch (DubboCodecException e) {
            return false;
        } finally {
            frame.release();
        }
    }

    private static int[] repeat(int code, int times) {
        int[] codes = new int[times];
        Arrays.fill(codes, code);
        return codes;
    }

    /** The echo request with {@code values} written from {@code offset} on. */
    private static byte[] echoWith(int offset, int... values) {
        byte[] bytes = read(ECHO_REQUEST);
        for (int i = 0; i < values.length; i++) {
            bytes[offset + i] = (byte) values[i];
        }
        return bytes;
    }
}
