package io.tollgate.protocols.bolt;

import static io.tollgate.protocols.bolt.BoltVectors.ECHO_REQUEST;
import static io.tollgate.protocols.bolt.BoltVectors.read;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.drain;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.pooled;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BoltDecoderMalformedTest {

    private static final int ECHO_ID = 1;
    private static final int V2_ID = 5;

    static Stream<Arguments> malformedFrames() {
        return Stream.of(
                Arguments.of("unknown protocol code", echoWith(0, 0x03), null, "unknown protocol code 0x3"),
                Arguments.of("an HTTP request", "GET / HTTP/1.1\r\n\r\n".getBytes(US_ASCII), null, "0x47"),
                Arguments.of("unknown v2 ver1", v2ResponseXor(1, 5), null, "ver1 7"),
                Arguments.of("unknown type", echoWith(1, 3), null, "unknown type 3"),
                Arguments.of("unknown cmdcode", echoWith(3, 5), ECHO_ID, "unknown cmdcode 5"),
                Arguments.of("response cmdcode in a request", echoWith(3, 2), ECHO_ID, "unknown cmdcode 2"),
                Arguments.of("negative class length", echoWith(14, 0xff, 0xff), ECHO_ID, "negative length"),
                Arguments.of("negative content length", echoWith(18, 0x80), ECHO_ID, "negative length"),
                Arguments.of("huge content length", echoWith(18, 0x7f, 0xff, 0xff, 0xff), ECHO_ID, "(expected: <= 16777216)"),
                Arguments.of("wrong CRC", v2ResponseXor(-1, 0x5a), V2_ID, "CRC32"),
                Arguments.of("class name changed under its CRC", v2ResponseXor(30, 0x20), V2_ID, "CRC32"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedFrames")
    void raisesACodecErrorThenDiscardsTheConnectionWithoutHurtingAnother(String what, byte[] bad, Integer requestId,
            String message) {
        EmbeddedChannel broken = new EmbeddedChannel(new RpcFrameDecoder(BoltCodec.DEFAULTS));
        EmbeddedChannel healthy = new EmbeddedChannel(new RpcFrameDecoder(BoltCodec.DEFAULTS));
        try {
            BoltCodecException error = catchThrowableOfType(BoltCodecException.class,
                    () -> broken.writeInbound(pooled(bad)));

            assertThat(error).as(what).isNotNull().hasMessageContaining(message);
            assertThat(error.requestId()).isEqualTo(requestId == null ? OptionalInt.empty() : OptionalInt.of(requestId));
            assertThat(error.dialect().isPresent()).isEqualTo(requestId != null);
            broken.writeInbound(pooled(read(ECHO_REQUEST)));
            assertThat(broken.inboundMessages()).isEmpty();
            healthy.writeInbound(pooled(read(ECHO_REQUEST)));
            assertThat(BoltVectors.reduce(healthy)).hasSize(1);
        } finally {
            broken.finishAndReleaseAll();
            healthy.finishAndReleaseAll();
        }
    }

    @Test
    void reportsTheDialectAndWhetherTheSenderWaitsForAnAnswer() {
        EmbeddedChannel channel = new EmbeddedChannel(new RpcFrameDecoder(BoltCodec.DEFAULTS));
        try {
            byte[] heartbeat = drain(BoltHeartbeats.request(ByteBufAllocator.DEFAULT,
                    BoltDialect.v2(BoltProtocol.CODEC_HESSIAN2, true), V2_ID));
            heartbeat[heartbeat.length - 1] ^= 1;
            BoltCodecException error = catchThrowableOfType(BoltCodecException.class,
                    () -> channel.writeInbound(pooled(heartbeat)));

            assertThat(error.dialect()).contains(BoltDialect.v2(BoltProtocol.CODEC_HESSIAN2, true));
            assertThat(error.expectsResponse()).isTrue();
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void deliversTheFramesBeforeAMalformedOneInTheSameRead() {
        byte[] echo = read(ECHO_REQUEST);
        byte[] twoFrames = new byte[echo.length * 2];
        System.arraycopy(echo, 0, twoFrames, 0, echo.length);
        System.arraycopy(echoWith(0, 0x09), 0, twoFrames, echo.length, echo.length);
        EmbeddedChannel channel = new EmbeddedChannel(new RpcFrameDecoder(BoltCodec.DEFAULTS));
        try {
            catchThrowableOfType(BoltCodecException.class, () -> channel.writeInbound(pooled(twoFrames)));
            assertThat(BoltVectors.reduce(channel)).hasSize(1);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    /** The echo request with {@code values} written from {@code offset} on. */
    private static byte[] echoWith(int offset, int... values) {
        byte[] bytes = read(ECHO_REQUEST);
        for (int i = 0; i < values.length; i++) {
            bytes[offset + i] = (byte) values[i];
        }
        return bytes;
    }

    /**
     * A v2 response with a CRC, class name, header map and content, with byte {@code offset}
     * (negative: from the end) XORed with {@code mask}.
     */
    private static byte[] v2ResponseXor(int offset, int mask) {
        byte[] bytes = drain(BoltResponses.response(ByteBufAllocator.DEFAULT,
                BoltDialect.v2(BoltProtocol.CODEC_HESSIAN2, true), V2_ID, BoltStatus.SUCCESS, "demo.Reply",
                Map.of("k", "v"), Unpooled.wrappedBuffer(new byte[] {1, 2, 3})));
        bytes[offset < 0 ? bytes.length + offset : offset] ^= (byte) mask;
        return bytes;
    }
}
