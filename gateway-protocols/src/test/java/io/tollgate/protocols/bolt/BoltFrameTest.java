package io.tollgate.protocols.bolt;

import io.tollgate.protocols.rpc.RpcFrameEncoder;
import static io.tollgate.protocols.bolt.BoltVectors.ECHO_REQUEST;
import static io.tollgate.protocols.bolt.BoltVectors.ECHO_RESPONSE;
import static io.tollgate.protocols.bolt.BoltVectors.decodeOne;
import static io.tollgate.protocols.bolt.BoltVectors.read;
import static io.tollgate.protocols.bolt.BoltVectors.withFrame;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.drain;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.pooled;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BoltFrameTest {

    private static final int NEW_ID = 0x0a0b0c0d;

    @ParameterizedTest
    @ValueSource(strings = {ECHO_REQUEST, ECHO_RESPONSE, "sofarpc-oneway.request.bin"})
    void rewritesTheRequestIdInPlaceAndForwardsEveryOtherByteUnchanged(String vector) {
        byte[] original = read(vector);
        BoltFrame frame = decodeOne(pooled(original));

        frame.requestId(NEW_ID);
        byte[] forwarded = forward(frame);

        byte[] expected = original.clone();
        Unpooled.wrappedBuffer(expected).setInt(5, NEW_ID);
        assertThat(forwarded).isEqualTo(expected);
        assertThat(frame.refCnt()).isZero();
    }

    @Test
    void recomputesTheCrcWhenRewritingTheIdOfAV2Frame() {
        byte[] original = drain(BoltHeartbeats.request(ByteBufAllocator.DEFAULT,
                BoltDialect.v2(BoltProtocol.CODEC_HESSIAN2, true), 3));
        BoltFrame frame = decodeOne(pooled(original));

        frame.requestId(NEW_ID);
        byte[] forwarded = forward(frame);

        assertThat(Arrays.copyOfRange(forwarded, 0, 6)).isEqualTo(Arrays.copyOfRange(original, 0, 6));
        assertThat(Arrays.copyOfRange(forwarded, 10, forwarded.length - 4))
                .isEqualTo(Arrays.copyOfRange(original, 10, original.length - 4));
        withFrame(pooled(forwarded), decodedAgain -> {
            assertThat(decodedAgain.requestId()).isEqualTo(NEW_ID);
            assertThat(decodedAgain.hasCrc()).isTrue();
        });
    }

    @Test
    void writesTheSameBytesAgainWhenRetainedForARetry() {
        byte[] original = read(ECHO_REQUEST);
        BoltFrame frame = decodeOne(pooled(original));
        frame.retain();

        byte[] first = forward(frame);
        byte[] second = forward(frame);

        assertThat(first).isEqualTo(original);
        assertThat(second).isEqualTo(original);
        assertThat(frame.refCnt()).isZero();
    }

    @Test
    void readsTheHeaderMapOnlyWhenAHeaderIsAskedFor() {
        byte[] bytes = read(ECHO_REQUEST);
        int firstKeyLength = BoltProtocol.V1_REQUEST_HEADER_LENGTH + 44;
        Unpooled.wrappedBuffer(bytes).setInt(firstKeyLength, 0x7fff);
        withFrame(pooled(bytes), frame -> {
            assertThat(frame.requestId()).isEqualTo(1);
            assertThatThrownBy(frame::service).isInstanceOf(BoltCodecException.class)
                    .hasMessageContaining("string length 32767");
        });
    }

    @Test
    void keepsTheFirstOfRepeatedKeysAndReadsMinusOneAsNull() {
        ByteBuf header = Unpooled.buffer();
        writeString(header, "service");
        writeString(header, "first");
        writeString(header, "service");
        writeString(header, "second");
        writeString(header, null);
        writeString(header, "value of a null key");
        writeString(header, "nothing");
        writeString(header, null);
        withFrame(v1ResponseWithHeader(header), frame -> {
            assertThat(frame.service()).isEqualTo("first");
            assertThat(frame.headers()).hasSize(2).containsEntry("nothing", null);
            assertThat(frame.method()).isNull();
        });
    }

    @Test
    void findsInPlaceWhatTheParsedMapHolds() {
        ByteBuf header = Unpooled.buffer();
        writeString(header, "group");
        writeString(header, null);
        writeString(header, "group");
        writeString(header, "blue");
        writeString(header, "zoné");
        writeString(header, "ünïcode value");
        writeString(header, "sofa_head_method_name");
        writeString(header, "echo");
        writeString(header, "empty");
        writeString(header, "");
        ByteBuf bytes = v1ResponseWithHeader(header);
        withFrame(bytes.copy(), found -> withFrame(bytes, parsed -> {
            for (String key : List.of("group", "zoné", "sofa_head_method_name", "empty", "absent", "grou")) {
                assertThat(found.header(key)).as(key).isEqualTo(parsed.headers().get(key));
            }
            assertThat(found.header("group")).isEqualTo("blue");
            assertThat(found.method()).isEqualTo("echo");
        }));
    }

    @Test
    void rejectsAHeaderMapThatEndsInsideALength() {
        ByteBuf header = Unpooled.buffer();
        writeString(header, "key");
        header.writeShort(0);
        withFrame(v1ResponseWithHeader(header), frame -> {
            assertThatThrownBy(() -> frame.header("key")).isInstanceOf(BoltCodecException.class)
                    .hasMessageContaining("2 bytes left for a length");
        });
    }

    /**
     * Found by {@code BoltDecoderFuzzTest}: a lookup read the missing value's length past the header
     * map, from the body (a value from the body, or an index error at the frame's end).
     */
    @Test
    void rejectsAHeaderMapWhoseLastKeyHasNoValueWithoutReadingTheBody() {
        ByteBuf header = Unpooled.buffer();
        writeString(header, BoltProtocol.HEADER_SERVICE);
        ByteBuf content = Unpooled.buffer();
        writeString(content, "from the body");
        withFrame(v1ResponseWithHeader(header, content), frame -> {
            assertThatThrownBy(frame::service).isInstanceOf(BoltCodecException.class)
                    .hasMessageContaining("0 bytes left for a length");
            assertThatThrownBy(frame::headers).isInstanceOf(BoltCodecException.class);
        });
    }

    @Test
    void sharesOneReferenceCountWithItsBytes() {
        BoltFrame frame = decodeOne(pooled(read(ECHO_RESPONSE)));
        assertThat(frame.retain()).isSameAs(frame);
        assertThat(frame.refCnt()).isEqualTo(2).isEqualTo(frame.bytes().refCnt());
        assertThat(frame.release()).isFalse();
        assertThat(frame.release()).isTrue();
        assertThat(frame.bytes().refCnt()).isZero();
        assertThat(frame).hasToString("BoltFrame(v1 RESPONSE, released)");
    }

    /** Writes {@code frame} through a {@link RpcFrameEncoder}, which takes its reference, and returns the bytes sent. */
    private static byte[] forward(BoltFrame frame) {
        EmbeddedChannel channel = new EmbeddedChannel(RpcFrameEncoder.INSTANCE);
        try {
            channel.writeOutbound(frame);
            return drain(channel.readOutbound());
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    /** A v1 response whose header map is {@code header} (released), no class name, no content. */
    private static ByteBuf v1ResponseWithHeader(ByteBuf header) {
        return v1ResponseWithHeader(header, Unpooled.EMPTY_BUFFER);
    }

    /** A v1 response with {@code header} and {@code content} (both released), no class name. */
    private static ByteBuf v1ResponseWithHeader(ByteBuf header, ByteBuf content) {
        ByteBuf frame = Unpooled.buffer();
        frame.writeByte(BoltProtocol.PROTOCOL_V1).writeByte(BoltProtocol.TYPE_RESPONSE)
                .writeShort(BoltProtocol.CMD_RESPONSE).writeByte(BoltProtocol.COMMAND_VERSION).writeInt(42)
                .writeByte(BoltProtocol.CODEC_HESSIAN2).writeShort(0).writeShort(0)
                .writeShort(header.readableBytes()).writeInt(content.readableBytes());
        frame.writeBytes(header).writeBytes(content);
        header.release();
        content.release();
        return frame;
    }

    private static void writeString(ByteBuf out, String s) {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] bytes = s.getBytes(UTF_8);
        out.writeInt(bytes.length).writeBytes(bytes);
    }
}
