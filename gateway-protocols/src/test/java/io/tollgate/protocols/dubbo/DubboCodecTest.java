package io.tollgate.protocols.dubbo;

import static io.tollgate.protocols.dubbo.DubboVectors.ECHO_REQUEST;
import static io.tollgate.protocols.dubbo.DubboVectors.NO_SUCH_SERVICE_RESPONSE;
import static io.tollgate.protocols.dubbo.DubboVectors.bodyReader;
import static io.tollgate.protocols.dubbo.DubboVectors.decodeOne;
import static io.tollgate.protocols.dubbo.DubboVectors.frame;
import static io.tollgate.protocols.dubbo.DubboVectors.read;
import static io.tollgate.protocols.dubbo.DubboVectors.withFrame;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.drain;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.pooled;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.tollgate.core.protocol.Detection;
import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class DubboCodecTest {

    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
    private static final DubboCodec CODEC = DubboCodec.DEFAULTS;

    @Test
    void isDubboWithSixtyFourBitIdsAndDetectsTheMagic() {
        assertThat(CODEC.protocol()).isEqualTo("dubbo");
        assertThat(CODEC.maxRequestId()).isEqualTo(Long.MAX_VALUE);
        ByteBuf echo = pooled(read(ECHO_REQUEST));
        try {
            assertThat(CODEC.detect(echo)).isEqualTo(Detection.MATCH);
            assertThat(echo.readerIndex()).isZero();
        } finally {
            echo.release();
        }
    }

    @Test
    void writesAHeartbeatAsDubboDoesAndReadsItBack() {
        byte[] heartbeat = drain(CODEC.heartbeat(ALLOC, 0x0102030405060708L));

        assertThat(ByteBufUtil.hexDump(heartbeat)).isEqualTo("dabbe200" + "0102030405060708" + "00000001" + "4e");
        withFrame(pooled(heartbeat), frame -> {
            assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.HEARTBEAT);
            assertThat(frame.requestId()).isEqualTo(0x0102030405060708L);
            assertThat(frame.isEvent()).isTrue();
            assertThat(frame.service()).isNull();
        });
    }

    @Test
    void acknowledgesAHeartbeatWithItsIdAndStatusOk() {
        withFrame(CODEC.heartbeat(ALLOC, 77), heartbeat -> {
            byte[] ack = drain(CODEC.heartbeatAck(ALLOC, heartbeat));

            assertThat(ByteBufUtil.hexDump(ack)).isEqualTo("dabb2214" + "000000000000004d" + "00000001" + "4e");
            withFrame(pooled(ack), frame -> {
                assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.HEARTBEAT_ACK);
                assertThat(frame.requestId()).isEqualTo(77);
                assertThat(frame.status()).isEqualTo(20);
                assertThat(CODEC.healthy(frame)).isTrue();
            });
        });
    }

    @Test
    void acknowledgesAHeartbeatInAnotherSerializationInHessian2WhoseNullDubboRecognises() {
        withFrame(pooled(frame(0xe0 | 23, 0, 78, "null".getBytes(US_ASCII))),
                heartbeat -> {
                    assertThat(heartbeat.kind()).isEqualTo(RpcFrame.Kind.HEARTBEAT);
                    assertThat(ByteBufUtil.hexDump(drain(CODEC.heartbeatAck(ALLOC, heartbeat))))
                            .isEqualTo("dabb2214" + "000000000000004e" + "00000001" + "4e");
                });
    }

    @Test
    void refusesToAcknowledgeWhatIsNotAHeartbeat() {
        withFrame(pooled(read(ECHO_REQUEST)), request -> {
            assertThatThrownBy(() -> CODEC.heartbeatAck(ALLOC, request))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected: a HEARTBEAT");
            assertThatThrownBy(() -> CODEC.healthy(request))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected: a Dubbo HEARTBEAT_ACK");
        });
    }

    @Test
    void findsAHeartbeatResponseWithAnErrorStatusUnhealthy() {
        withFrame(pooled(frame(0x22, DubboStatus.SERVER_ERROR.code(), 79, new byte[] {'N'})),
                ack -> assertThat(CODEC.healthy(ack)).isFalse());
    }

    @ParameterizedTest
    @CsvSource({
        "NO_ROUTE, 60, 503, tollgate: no route",
        "NO_HEALTHY_UPSTREAM, 60, 503, tollgate: no healthy upstream",
        "OVERFLOW, 100, 503, tollgate: upstream overflow",
        "TIMEOUT, 31, 504, tollgate: upstream timeout",
        "CONNECTION_CLOSED, 50, 502, tollgate: upstream connection closed",
        "MALFORMED, 40, 400, tollgate: malformed request"})
    void answersEachGatewayErrorWithItsStatusAndAMessageTheConsumerReads(RpcError error, int status, int httpStatus,
            String message) {
        assertThat(CODEC.httpStatus(error)).isEqualTo(httpStatus);
        withFrame(CODEC.errorReply(ALLOC, DubboProtocol.SERIALIZATION_HESSIAN2, -5, error), frame -> {
            assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.RESPONSE);
            assertThat(frame.flag()).isEqualTo(DubboProtocol.SERIALIZATION_HESSIAN2);
            assertThat(frame.requestId()).isEqualTo(-5);
            assertThat(frame.status()).isEqualTo(status);
            assertThat(frame.httpStatus()).isEqualTo(httpStatus);
            Hessian2Reader reader = bodyReader(frame);
            assertThat(reader.readString()).isEqualTo(message);
            assertThat(reader.isAtEnd()).isTrue();
        });
    }

    /**
     * The gateway's own busy and timeout answers read back as the conditions the retry policy
     * knows; a rate limit's is a busy server's on the wire.
     */
    @Test
    void readsItsOwnOverflowAndTimeoutRepliesBackAsThoseConditions() {
        for (RpcError error : RpcError.values()) {
            RpcError expected = switch (error) {
                case OVERFLOW, RATE_LIMITED -> RpcError.OVERFLOW;
                case TIMEOUT -> RpcError.TIMEOUT;
                default -> null;
            };
            withFrame(CODEC.errorReply(ALLOC, 2, 1, error), frame -> assertThat(frame.statusError())
                    .isEqualTo(expected));
        }
    }

    @ParameterizedTest
    @EnumSource(RpcError.class)
    void answersInHessian2WhateverTheRequestsSerialization(RpcError error) {
        byte[] hessian2 = drain(CODEC.errorReply(ALLOC, DubboProtocol.SERIALIZATION_HESSIAN2, 9, error));
        byte[] fastjson2 = drain(CODEC.errorReply(ALLOC, 23, 9, error));
        assertThat(fastjson2).isEqualTo(hessian2);
    }

    /** Our error response is byte for byte what a Dubbo 3.3.6 provider wrote for the same status and message. */
    @Test
    void writesAnErrorResponseExactlyAsDubboDoes() {
        byte[] captured = read(NO_SUCH_SERVICE_RESPONSE);
        long id;
        String message;
        DubboFrame frame = decodeOne(pooled(captured));
        try {
            id = frame.requestId();
            message = bodyReader(frame).readString();
        } finally {
            frame.release();
        }
        assertThat(drain(DubboResponses.error(ALLOC, id, DubboStatus.BAD_REQUEST, message))).isEqualTo(captured);
    }

    @Test
    void refusesToWriteAnErrorWithStatusOk() {
        assertThatThrownBy(() -> DubboResponses.error(ALLOC, 1, DubboStatus.OK, "no"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("status: OK (expected: an error status)");
    }

    @Test
    void writesLongAndNonAsciiMessagesThatReadBack() {
        for (String message : new String[] {"", "é中😀", "x".repeat(1024), "y".repeat(70_000)}) {
            withFrame(DubboResponses.error(ALLOC, 3, DubboStatus.SERVER_ERROR, message), frame -> {
                Hessian2Reader reader = bodyReader(frame);
                assertThat(reader.readString()).isEqualTo(message);
                assertThat(reader.isAtEnd()).isTrue();
            });
        }
    }

    @Test
    void decodesAFrameAtAReaderIndexPastZeroAndLeavesTheRest() {
        byte[] echo = read(ECHO_REQUEST);
        ByteBuf in = ALLOC.buffer().writeBytes(new byte[] {1, 2, 3}).writeBytes(echo).writeBytes(Arrays.copyOf(echo, 5));
        try {
            in.skipBytes(3);
            DubboFrame frame = CODEC.decode(in);
            try {
                assertThat(frame.frameLength()).isEqualTo(echo.length);
                assertThat(frame.service()).isEqualTo("demo.Echoer");
            } finally {
                frame.release();
            }
            assertThat(in.readableBytes()).isEqualTo(5);
            assertThat(CODEC.decode(in)).isNull();
            assertThat(in.readableBytes()).isEqualTo(5);
        } finally {
            in.release();
        }
    }
}
