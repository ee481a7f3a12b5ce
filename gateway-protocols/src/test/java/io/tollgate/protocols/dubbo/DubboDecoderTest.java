package io.tollgate.protocols.dubbo;

import static io.tollgate.protocols.dubbo.DubboVectors.APP_EXCEPTION_REQUEST;
import static io.tollgate.protocols.dubbo.DubboVectors.APP_EXCEPTION_RESPONSE;
import static io.tollgate.protocols.dubbo.DubboVectors.ECHO_1KB_REQUEST;
import static io.tollgate.protocols.dubbo.DubboVectors.ECHO_1KB_RESPONSE;
import static io.tollgate.protocols.dubbo.DubboVectors.ECHO_ID;
import static io.tollgate.protocols.dubbo.DubboVectors.ECHO_REQUEST;
import static io.tollgate.protocols.dubbo.DubboVectors.ECHO_RESPONSE;
import static io.tollgate.protocols.dubbo.DubboVectors.NO_SUCH_SERVICE_REQUEST;
import static io.tollgate.protocols.dubbo.DubboVectors.NO_SUCH_SERVICE_RESPONSE;
import static io.tollgate.protocols.dubbo.DubboVectors.PIPELINED_REQUESTS;
import static io.tollgate.protocols.dubbo.DubboVectors.PIPELINED_RESPONSES;
import static io.tollgate.protocols.dubbo.DubboVectors.assertNoRoutingView;
import static io.tollgate.protocols.dubbo.DubboVectors.bodyReader;
import static io.tollgate.protocols.dubbo.DubboVectors.forEachFrame;
import static io.tollgate.protocols.dubbo.DubboVectors.read;
import static io.tollgate.protocols.dubbo.DubboVectors.withFrame;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.pooled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tollgate.protocols.rpc.RpcCodecFixtures;
import io.tollgate.protocols.rpc.RpcCodecFixtures.Decoded;
import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.protocols.rpc.SplitFeeding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DubboDecoderTest {

    private static final String ECHOER = "demo.Echoer";
    private static final String STRING_DESCRIPTOR = "Ljava/lang/String;";

    @Test
    void decodesTheHeaderAndRoutingViewOfAnEchoRequest() {
        withFrame(pooled(read(ECHO_REQUEST)), frame -> {
            assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.REQUEST);
            assertThat(frame.flag()).isEqualTo((byte) 0xc2);
            assertThat(frame.serializationId()).isEqualTo(DubboProtocol.SERIALIZATION_HESSIAN2);
            assertThat(frame.isEvent()).isFalse();
            assertThat(frame.requestId()).isEqualTo(ECHO_ID);
            assertThat(frame.frameLength()).isEqualTo(167);
            assertThat(frame.bodyLength()).isEqualTo(151);
            assertThat(frame.replyForm()).isEqualTo(DubboProtocol.SERIALIZATION_HESSIAN2);
            assertThat(frame.protocolName()).isEqualTo("DUBBO");

            assertThat(frame.service()).isEqualTo(ECHOER);
            assertThat(frame.method()).isEqualTo("echo");
            assertThat(frame.header("version")).isEqualTo("0.0.0");
            assertThat(frame.header("group")).isNull();
            assertThat(frame.header("remote.application")).isEqualTo("demo-client1");
            assertThat(frame.timeoutMillis()).isEqualTo(3000);
            assertThat(frame.invocation()).isEqualTo(new DubboInvocation("2.0.2", ECHOER, "0.0.0", "echo",
                    STRING_DESCRIPTOR, Map.of("path", ECHOER, "remote.application", "demo-client1",
                            "interface", ECHOER, "version", "0.0.0", "timeout", "3000")));
            assertThatThrownBy(frame::status).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(frame::httpStatus).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(frame::statusError).isInstanceOf(IllegalStateException.class);
        });
    }

    @Test
    void decodesAnEchoResponseWithStatusAndNoRoutingView() {
        withFrame(pooled(read(ECHO_RESPONSE)), frame -> {
            assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.RESPONSE);
            assertThat(frame.flag()).isEqualTo((byte) 0x02);
            assertThat(frame.requestId()).isEqualTo(ECHO_ID);
            assertThat(frame.status()).isEqualTo(DubboStatus.OK.code());
            assertThat(frame.httpStatus()).isEqualTo(200);
            assertThat(frame.statusError()).isNull();
            assertThat(frame.frameLength()).isEqualTo(34);
            assertNoRoutingView(frame);

            Hessian2Reader body = bodyReader(frame);
            assertThat(body.readInt()).as("value with attachments").isEqualTo(4);
            assertThat(body.readString()).isEqualTo("hi");
            assertThat(body.readStringMap()).isEqualTo(Map.of("dubbo", "2.0.2"));
            assertThat(body.isAtEnd()).isTrue();
        });
    }

    @Test
    void stepsOverAOneKilobyteArgumentToReachTheAttachments() {
        withFrame(pooled(read(ECHO_1KB_REQUEST)), frame -> {
            assertThat(frame.frameLength()).isEqualTo(1191);
            assertThat(frame.method()).isEqualTo("echo");
            assertThat(frame.invocation().parameterTypes()).isEqualTo(STRING_DESCRIPTOR);
            assertThat(frame.attachments()).hasSize(5).containsEntry("interface", ECHOER);
            assertThat(frame.timeoutMillis()).isEqualTo(3000);
        });
        withFrame(pooled(read(ECHO_1KB_RESPONSE)), frame -> {
            Hessian2Reader body = bodyReader(frame);
            assertThat(body.readInt()).isEqualTo(4);
            assertThat(body.readString()).isEqualTo("y".repeat(1024));
            assertThat(body.readStringMap()).containsEntry("dubbo", "2.0.2");
            assertThat(body.isAtEnd()).isTrue();
        });
    }

    @Test
    void readsACallThatThrowsAndStepsOverTheExceptionItGetsBack() {
        withFrame(pooled(read(APP_EXCEPTION_REQUEST)), frame -> {
            assertThat(frame.service()).isEqualTo(ECHOER);
            assertThat(frame.method()).isEqualTo("fail");
        });
        withFrame(pooled(read(APP_EXCEPTION_RESPONSE)), frame -> {
            assertThat(frame.status()).isEqualTo(DubboStatus.OK.code());
            assertThat(frame.frameLength()).isEqualTo(4953);
            Hessian2Reader body = bodyReader(frame);
            assertThat(body.readInt()).as("exception with attachments").isEqualTo(3);
            body.skipValue();
            assertThat(body.readStringMap()).isEqualTo(Map.of("dubbo", "2.0.2"));
            assertThat(body.isAtEnd()).isTrue();
        });
    }

    @Test
    void readsTheServiceOfACallToAnUnexportedServiceAndTheProvidersBadRequestMessage() {
        withFrame(pooled(read(NO_SUCH_SERVICE_REQUEST)), frame -> {
            assertThat(frame.service()).isEqualTo("demo.Absent");
            assertThat(frame.header("path")).isEqualTo("demo.Absent");
            assertThat(frame.timeoutMillis()).isEqualTo(5000);
        });
        withFrame(pooled(read(NO_SUCH_SERVICE_RESPONSE)), frame -> {
            assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.RESPONSE);
            assertThat(frame.status()).isEqualTo(DubboStatus.BAD_REQUEST.code());
            assertThat(frame.httpStatus()).isEqualTo(400);
            assertThat(frame.statusError()).isNull();
            Hessian2Reader body = bodyReader(frame);
            assertThat(body.readString())
                    .isEqualTo("Fail to decode request due to: RpcInvocation [methodName=echo, parameterTypes=null]");
            assertThat(body.isAtEnd()).isTrue();
        });
    }

    @Test
    void decodesThirtyPipelinedRequestsInOrder() {
        List<Long> ids = new ArrayList<>();
        forEachFrame(read(PIPELINED_REQUESTS), frame -> {
            int n = ids.size();
            assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.REQUEST);
            assertThat(frame.service()).isEqualTo(ECHOER);
            assertThat(frame.method()).isEqualTo("echo");
            assertThat(frame.header("id")).isEqualTo(Integer.toString(n));
            assertThat(frame.header("async")).isEqualTo("true");
            assertThat(frame.attachments()).hasSize(7);
            ids.add(frame.requestId());
        });
        assertThat(ids).containsExactlyElementsOf(LongStream.rangeClosed(9, 38).map(i -> ECHO_ID - 3 + i).boxed().toList());
    }

    /**
     * The response capture answers the calls req-0 to req-35 of one run in the order they completed,
     * with some missing: each must be read with its id, in arrival order, and each id must be the one
     * of the call whose argument it echoes.
     */
    @Test
    void decodesThirtyPipelinedResponsesInArrivalOrder() {
        List<Long> ids = new ArrayList<>();
        forEachFrame(read(PIPELINED_RESPONSES), frame -> {
            assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.RESPONSE);
            assertThat(frame.status()).isEqualTo(DubboStatus.OK.code());
            Hessian2Reader body = bodyReader(frame);
            assertThat(body.readInt()).isEqualTo(4);
            assertThat(body.readString()).isEqualTo("req-" + (frame.requestId() - (ECHO_ID + 6)));
            ids.add(frame.requestId());
        });
        assertThat(ids).hasSize(30).doesNotHaveDuplicates().isNotEqualTo(ids.stream().sorted().toList())
                .startsWith(ECHO_ID + 6, ECHO_ID + 7, ECHO_ID + 8, ECHO_ID + 14);
    }

    @ParameterizedTest
    @MethodSource("io.tollgate.protocols.dubbo.DubboVectors#all")
    void consumesEveryByteOfACaptureAsWholeFrames(String vector) {
        SplitFeeding.assertConsumedAsWholeFrames(DubboVectors.FIXTURES, read(vector));
    }

    @ParameterizedTest
    @MethodSource("io.tollgate.protocols.dubbo.DubboVectors#requests")
    void readsTheRoutingViewOfEveryCapturedRequestWithoutError(String vector) {
        forEachFrame(read(vector), frame -> {
            assertThat(frame.service()).startsWith("demo.");
            assertThat(frame.method()).isNotEmpty();
            assertThat(frame.header("dubbo")).isEqualTo("2.0.2");
            assertThat(frame.header("version")).isEqualTo("0.0.0");
            assertThat(frame.timeoutMillis()).isPositive();
        });
    }

    @ParameterizedTest
    @MethodSource("io.tollgate.protocols.dubbo.DubboVectors#all")
    void decodesTheSameFramesWhenFedOneByteAtATime(String vector) {
        SplitFeeding.assertSameFramesFedOneByteAtATime(DubboVectors.FIXTURES, read(vector));
    }

    /** See {@link SplitFeeding#assertSameFramesSplitInTwoAtEveryOffset} for the offsets of the 30-frame captures. */
    @ParameterizedTest
    @MethodSource("io.tollgate.protocols.dubbo.DubboVectors#all")
    void decodesTheSameFramesWhenSplitInTwoAtEveryOffset(String vector) {
        SplitFeeding.assertSameFramesSplitInTwoAtEveryOffset(DubboVectors.FIXTURES, read(vector));
    }

    @Test
    void consumesNothingAndReturnsNullUntilTheWholeFrameIsThere() {
        byte[] echo = read(ECHO_REQUEST);
        for (int length = 0; length < echo.length; length++) {
            ByteBuf in = pooled(Arrays.copyOf(echo, length));
            try {
                assertThat(DubboCodec.DEFAULTS.decode(in)).as("first %d bytes", length).isNull();
                assertThat(in.readerIndex()).isZero();
            } finally {
                in.release();
            }
        }
    }

    @Test
    void decodesGatewayMadeFramesMixedWithCapturedOnesOnOneConnection() {
        EmbeddedChannel channel = DubboVectors.channel();
        try {
            channel.writeInbound(DubboHeartbeats.request(channel.alloc(), 70));
            channel.writeInbound(pooled(read(ECHO_REQUEST)));
            channel.writeInbound(DubboCodec.DEFAULTS.errorReply(channel.alloc(), 2, 71, RpcError.TIMEOUT));
            channel.writeInbound(DubboHeartbeats.response(channel.alloc(), 72));
            assertThat(RpcCodecFixtures.reduce(channel)).extracting(Decoded::kind, Decoded::requestId).containsExactly(
                    tuple(RpcFrame.Kind.HEARTBEAT, 70L),
                    tuple(RpcFrame.Kind.REQUEST, ECHO_ID),
                    tuple(RpcFrame.Kind.RESPONSE, 71L),
                    tuple(RpcFrame.Kind.HEARTBEAT_ACK, 72L));
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void acceptsABodyOfExactlyThePayloadLimit() {
        EmbeddedChannel channel = DubboVectors.channel(new DubboCodec(151));
        try {
            channel.writeInbound(pooled(read(ECHO_REQUEST)));
            assertThat(RpcCodecFixtures.reduce(channel)).hasSize(1);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void rejectsABodyOverThePayloadLimitAsSoonAsTheHeaderArrives() {
        byte[] headerOnly = Arrays.copyOf(read(ECHO_REQUEST), DubboProtocol.HEADER_LENGTH);
        EmbeddedChannel channel = DubboVectors.channel(new DubboCodec(150));
        try {
            assertThatThrownBy(() -> channel.writeInbound(pooled(headerOnly)))
                    .isInstanceOf(DubboCodecException.class).hasMessageContaining("body length 151 (expected: 0..150)");
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void rejectsAPayloadLimitThatCannotHoldAHeartbeat() {
        assertThatThrownBy(() -> new DubboCodec(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("payloadLimit: 0 (expected: >= 1)");
        assertThat(DubboCodec.DEFAULTS.payloadLimit()).isEqualTo(8_388_608);
    }
}
