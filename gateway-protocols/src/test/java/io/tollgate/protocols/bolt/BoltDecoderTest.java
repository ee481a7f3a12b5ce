package io.tollgate.protocols.bolt;

import static io.tollgate.protocols.bolt.BoltVectors.ECHO_REQUEST;
import static io.tollgate.protocols.bolt.BoltVectors.ECHO_RESPONSE;
import static io.tollgate.protocols.bolt.BoltVectors.PIPELINED_REQUESTS;
import static io.tollgate.protocols.bolt.BoltVectors.PIPELINED_RESPONSES;
import static io.tollgate.protocols.bolt.BoltVectors.decodeChunks;
import static io.tollgate.protocols.bolt.BoltVectors.read;
import static io.tollgate.protocols.bolt.BoltVectors.withFrame;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.drain;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.pooled;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tollgate.protocols.bolt.BoltVectors.Decoded;
import io.tollgate.protocols.rpc.SplitFeeding;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class BoltDecoderTest {

    private static final String SOFA_REQUEST = "com.alipay.sofa.rpc.core.request.SofaRequest";
    private static final String SOFA_RESPONSE = "com.alipay.sofa.rpc.core.response.SofaResponse";
    private static final String ECHO_SERVICE = "demo.EchoService:1.0";

    @Test
    void decodesTheFixedHeaderAndHeaderMapOfAnEchoRequest() {
        withFrame(pooled(read(ECHO_REQUEST)), frame -> {
            assertThat(frame.kind()).isEqualTo(BoltFrame.Kind.REQUEST);
            assertThat(frame.protocolCode()).isEqualTo(BoltProtocol.PROTOCOL_V1);
            assertThat(frame.protocolVersion()).isEqualTo(BoltProtocol.V2_VERSION_1);
            assertThat(frame.commandVersion()).isEqualTo(BoltProtocol.COMMAND_VERSION);
            assertThat(frame.requestId()).isEqualTo(1);
            assertThat(frame.codec()).isEqualTo(BoltProtocol.CODEC_HESSIAN2);
            assertThat(frame.switches()).isZero();
            assertThat(frame.hasCrc()).isFalse();
            assertThat(frame.timeout()).isEqualTo(3000);
            assertThat(frame.frameLength()).isEqualTo(758);
            assertThat(frame.className().toString(US_ASCII)).isEqualTo(SOFA_REQUEST);
            assertThat(frame.service()).isEqualTo(ECHO_SERVICE);
            assertThat(frame.method()).isEqualTo("echo");
            assertThat(frame.headers()).hasSize(10).containsEntry("sofa_head_target_service", ECHO_SERVICE)
                    .containsEntry("type", "sync").containsEntry("protocol", "bolt")
                    .containsEntry("rpc_trace_context.sysPenAttrs", "");
            assertThat(frame.header().readableBytes()).isEqualTo(0x170);
            assertThat(frame.content().readableBytes()).isEqualTo(324);
            assertThat(frame.content().toString(US_ASCII)).contains(SOFA_REQUEST).endsWith("hi");
            assertThatThrownBy(frame::status).isInstanceOf(IllegalStateException.class);
        });
    }

    @Test
    void decodesAnEchoResponseWithStatusAndNoHeaders() {
        withFrame(pooled(read(ECHO_RESPONSE)), frame -> {
            assertThat(frame.kind()).isEqualTo(BoltFrame.Kind.RESPONSE);
            assertThat(frame.requestId()).isEqualTo(1);
            assertThat(frame.status()).isEqualTo(BoltStatus.SUCCESS.code());
            assertThat(frame.className().toString(US_ASCII)).isEqualTo(SOFA_RESPONSE);
            assertThat(frame.headers()).isEmpty();
            assertThat(frame.content().readableBytes()).isEqualTo(100);
            assertThat(frame.frameLength()).isEqualTo(166);
            assertThatThrownBy(frame::timeout).isInstanceOf(IllegalStateException.class);
        });
    }

    @Test
    void readsTheErrorMarkOfAnApplicationExceptionResponse() {
        withFrame(pooled(read("sofarpc-app-exception.response.bin")), frame -> {
            assertThat(frame.requestId()).isEqualTo(4);
            assertThat(frame.status()).isZero();
            assertThat(frame.header(BoltProtocol.HEADER_RESPONSE_ERROR)).isEqualTo("true");
        });
    }

    @Test
    void decodesAOnewayRequestWithoutTimeout() {
        withFrame(pooled(read("sofarpc-oneway.request.bin")), frame -> {
            assertThat(frame.kind()).isEqualTo(BoltFrame.Kind.ONEWAY);
            assertThat(frame.kind().expectsResponse()).isFalse();
            assertThat(frame.timeout()).isEqualTo(BoltProtocol.NO_TIMEOUT);
            assertThat(frame.service()).isEqualTo(ECHO_SERVICE);
            assertThat(frame.method()).isEqualTo("touch");
        });
    }

    @Test
    void readsTheServiceOfACallToAnUnexportedService() {
        withFrame(pooled(read("sofarpc-no-such-service.request.bin")), frame -> {
            assertThat(frame.service()).isEqualTo("demo.MissingThing:1.0");
            assertThat(frame.timeout()).isEqualTo(5000);
        });
    }

    @Test
    void decodesThirtyPipelinedRequestsInOrder() {
        EmbeddedChannel channel = new EmbeddedChannel(new RpcFrameDecoder(BoltCodec.DEFAULTS));
        try {
            channel.writeInbound(pooled(read(PIPELINED_REQUESTS)));
            List<Integer> ids = new ArrayList<>();
            for (BoltFrame frame; (frame = channel.readInbound()) != null; ) {
                try {
                    assertThat(frame.kind()).isEqualTo(BoltFrame.Kind.REQUEST);
                    assertThat(frame.className().toString(US_ASCII)).isEqualTo(SOFA_REQUEST);
                    assertThat(frame.service()).isEqualTo(ECHO_SERVICE);
                    assertThat(frame.method()).isEqualTo("echo");
                    ids.add((int) frame.requestId());
                } finally {
                    frame.release();
                }
            }
            assertThat(ids).containsExactlyElementsOf(IntStream.rangeClosed(9, 38).boxed().toList());
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    /**
     * The response capture comes from a neighbouring run: it answers ids 10 to 40 except 38, so 28
     * of its ids match the request capture (9 to 38). What matters is that every response is read,
     * with its id, in arrival order.
     */
    @Test
    void decodesThirtyPipelinedResponsesInArrivalOrder() {
        List<Decoded> responses = decodeChunks(List.of(read(PIPELINED_RESPONSES)));
        List<Integer> requestIds = decodeChunks(List.of(read(PIPELINED_REQUESTS))).stream()
                .map(Decoded::requestId).toList();

        List<Integer> ids = responses.stream().map(Decoded::requestId).toList();
        assertThat(responses).extracting(Decoded::kind).containsOnly(BoltFrame.Kind.RESPONSE);
        assertThat(ids).hasSize(30).doesNotHaveDuplicates().isNotEqualTo(ids.stream().sorted().toList())
                .startsWith(10, 11, 12, 22, 15);
        assertThat(ids.stream().filter(requestIds::contains)).hasSize(28);
    }

    @ParameterizedTest
    @MethodSource("io.tollgate.protocols.bolt.BoltVectors#all")
    void consumesEveryByteOfACaptureAsWholeFrames(String vector) {
        SplitFeeding.assertConsumedAsWholeFrames(BoltVectors.FIXTURES, read(vector));
    }

    @ParameterizedTest
    @MethodSource("io.tollgate.protocols.bolt.BoltVectors#all")
    void decodesTheSameFramesWhenFedOneByteAtATime(String vector) {
        SplitFeeding.assertSameFramesFedOneByteAtATime(BoltVectors.FIXTURES, read(vector));
    }

    /** See {@link SplitFeeding#assertSameFramesSplitInTwoAtEveryOffset} for the offsets of the 30-frame captures. */
    @ParameterizedTest
    @MethodSource("io.tollgate.protocols.bolt.BoltVectors#all")
    void decodesTheSameFramesWhenSplitInTwoAtEveryOffset(String vector) {
        SplitFeeding.assertSameFramesSplitInTwoAtEveryOffset(BoltVectors.FIXTURES, read(vector));
    }

    @Test
    void decodesV1AndV2FramesMixedOnOneConnection() {
        ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
        EmbeddedChannel channel = new EmbeddedChannel(new RpcFrameDecoder(BoltCodec.DEFAULTS));
        try {
            channel.writeInbound(BoltHeartbeats.request(alloc, BoltDialect.v2(BoltProtocol.CODEC_HESSIAN2, true), 70));
            channel.writeInbound(pooled(read(ECHO_REQUEST)));
            channel.writeInbound(BoltResponses.status(alloc, BoltDialect.v2(BoltProtocol.CODEC_HESSIAN2, false), 71,
                    BoltStatus.TIMEOUT));
            assertThat(BoltVectors.reduce(channel)).extracting(Decoded::kind, Decoded::requestId).containsExactly(
                    tuple(BoltFrame.Kind.HEARTBEAT, 70),
                    tuple(BoltFrame.Kind.REQUEST, 1),
                    tuple(BoltFrame.Kind.RESPONSE, 71));
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void acceptsAFrameOfExactlyTheMaximumSize() {
        EmbeddedChannel channel = new EmbeddedChannel(
                new RpcFrameDecoder(new BoltCodec(new BoltCodecOptions(758, 1024, 1024))));
        try {
            channel.writeInbound(pooled(read(ECHO_REQUEST)));
            assertThat(BoltVectors.reduce(channel)).hasSize(1);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void rejectsAnOversizedFrameAsSoonAsItsFixedHeaderArrives() {
        byte[] fixedHeaderOnly = Arrays.copyOf(read(ECHO_REQUEST), BoltProtocol.V1_REQUEST_HEADER_LENGTH);
        EmbeddedChannel channel = new EmbeddedChannel(
                new RpcFrameDecoder(new BoltCodec(new BoltCodecOptions(757, 1024, 1024))));
        try {
            assertThatThrownBy(() -> channel.writeInbound(pooled(fixedHeaderOnly)))
                    .isInstanceOf(BoltCodecException.class).hasMessageContaining("frame of 758 bytes");
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void limitsTheClassNameAndTheHeaderMapSeparately() {
        byte[] echo = read(ECHO_REQUEST);
        assertThatThrownBy(() -> decodeWith(new BoltCodecOptions(1 << 20, SOFA_REQUEST.length() - 1, 1024), echo))
                .isInstanceOf(BoltCodecException.class).hasMessageContaining("class name of 44 bytes");
        assertThatThrownBy(() -> decodeWith(new BoltCodecOptions(1 << 20, 1024, 0x16f), echo))
                .isInstanceOf(BoltCodecException.class).hasMessageContaining("header map of 368 bytes");
    }

    @Test
    void rejectsOptionsThatCannotHoldAFrame() {
        assertThatThrownBy(() -> new BoltCodecOptions(10, 1024, 1024))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxFrameSize: 10 (expected: >= 28)");
        assertThatThrownBy(() -> new BoltCodecOptions(1024, -1, 1024))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxClassLength: -1 (expected: 0..32767)");
        assertThatThrownBy(() -> new BoltCodecOptions(1024, 1024, 40_000))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxHeaderLength: 40000 (expected: 0..32767)");
    }

    @Test
    void waitsForTheCrcOfATruncatedV2FrameAndEmitsNothing() {
        byte[] frame = drain(BoltHeartbeats.request(ByteBufAllocator.DEFAULT,
                BoltDialect.v2(BoltProtocol.CODEC_HESSIAN2, true), 5));
        EmbeddedChannel channel = new EmbeddedChannel(new RpcFrameDecoder(BoltCodec.DEFAULTS));
        channel.writeInbound(pooled(Arrays.copyOf(frame, frame.length - BoltProtocol.CRC_LENGTH)));
        assertThat(channel.inboundMessages()).isEmpty();
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    private static void decodeWith(BoltCodecOptions options, byte[] bytes) {
        EmbeddedChannel channel = new EmbeddedChannel(new RpcFrameDecoder(new BoltCodec(options)));
        try {
            channel.writeInbound(pooled(bytes));
        } finally {
            channel.finishAndReleaseAll();
        }
    }
}
