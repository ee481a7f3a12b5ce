package io.tollgate.examples.lpp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.tollgate.core.protocol.Detection;
import io.tollgate.protocols.rpc.RpcCodecException;
import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The codec against frames spelled out byte by byte, as the ruler in {@link LppProtocol} draws them. */
class LppCodecTest {

    /** A request, id 0x0102030405060708, to service "ab", method "c", with body "xyz". */
    private static final byte[] REQUEST = {
        (byte) 0xca, (byte) 0xfe, 1, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8,
        0, 2, 'a', 'b',
        0, 1, 'c',
        0, 0, 0, 3, 'x', 'y', 'z'};

    /** The gateway's answer NO_ROUTE to a request with id -7: a response with status 2 and nothing else. */
    private static final byte[] NO_ROUTE_REPLY = {
        (byte) 0xca, (byte) 0xfe, 1, 3, 2, -1, -1, -1, -1, -1, -1, -1, -7,
        0, 0,
        0, 0,
        0, 0, 0, 0};

    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    private final LppCodec codec = new LppCodec(1024);

    @Test
    void detectsTheMagicAndNothingElseWithoutConsuming() {
        assertThat(detect()).isEqualTo(Detection.NEED_MORE);
        assertThat(detect(0xca)).isEqualTo(Detection.NEED_MORE);
        assertThat(detect(0xca, 0xfe)).isEqualTo(Detection.MATCH);
        assertThat(detect('G', 'E', 'T', ' ')).isEqualTo(Detection.NO_MATCH);
        assertThat(detect(0x16, 0x03)).as("TLS").isEqualTo(Detection.NO_MATCH);
        assertThat(detect(0x01, 0x00)).as("Bolt").isEqualTo(Detection.NO_MATCH);
        assertThat(detect(0xda, 0xbb)).as("Dubbo").isEqualTo(Detection.NO_MATCH);
        assertThat(detect(0xca, 0xfd)).isEqualTo(Detection.NO_MATCH);
    }

    @Test
    void theWriterWritesTheRuler() {
        ByteBuf body = Unpooled.copiedBuffer("xyz", UTF_8);
        ByteBuf written = LppFrameWriter.write(ALLOC, RpcFrame.Kind.REQUEST, LppStatus.OK,
                0x0102030405060708L, "ab", "c", body);
        try {
            assertThat(ByteBufUtil.getBytes(written)).containsExactly(REQUEST);
            assertThat(body.readableBytes()).as("the body is copied, not consumed").isEqualTo(3);
        } finally {
            written.release();
            body.release();
        }
    }

    @Test
    void decodesNothingUntilTheWholeFrameIsThereThenAViewOfIt() {
        ByteBuf in = Unpooled.buffer();
        try {
            for (int i = 0; i < REQUEST.length - 1; i++) {
                in.writeByte(REQUEST[i]);
                assertThat(codec.decode(in)).as("after %d bytes", i + 1).isNull();
                assertThat(in.readerIndex()).isZero();
            }
            in.writeByte(REQUEST[REQUEST.length - 1]);
            LppFrame frame = codec.decode(in);
            try {
                assertThat(in.isReadable()).isFalse();
                assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.REQUEST);
                assertThat(frame.requestId()).isEqualTo(0x0102030405060708L);
                assertThat(frame.service()).isEqualTo("ab");
                assertThat(frame.method()).isEqualTo("c");
                assertThat(frame.header("ab")).isNull();
                assertThat(frame.body().toString(UTF_8)).isEqualTo("xyz");
                assertThat(frame.frameLength()).isEqualTo(REQUEST.length);
                assertThat(frame.timeoutMillis()).isZero();
                assertThat(frame.protocolName()).isEqualTo("LPP/1");

                frame.requestId(-2);

                assertThat(frame.requestId()).isEqualTo(-2);
                assertThat(ByteBufUtil.getBytes(frame.bytes(), 5, 8)).as("rewritten in the frame's own bytes")
                        .containsExactly(-1, -1, -1, -1, -1, -1, -1, -2);
            } finally {
                frame.release();
            }
        } finally {
            in.release();
        }
    }

    @Test
    void aFrameWithoutServiceOrMethodNamesNone() {
        ByteBuf heartbeat = codec.heartbeat(ALLOC, 42);
        try {
            LppFrame frame = codec.decode(heartbeat);
            assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.HEARTBEAT);
            assertThat(frame.service()).isNull();
            assertThat(frame.method()).isNull();
            assertThatThrownBy(frame::status).isInstanceOf(IllegalStateException.class);
            ByteBuf ack = codec.heartbeatAck(ALLOC, frame);
            frame.release();
            LppFrame decodedAck = codec.decode(ack);
            assertThat(decodedAck.kind()).isEqualTo(RpcFrame.Kind.HEARTBEAT_ACK);
            assertThat(decodedAck.requestId()).isEqualTo(42);
            assertThat(codec.healthy(decodedAck)).isTrue();
            decodedAck.release();
            ack.release();
        } finally {
            heartbeat.release();
        }
    }

    @Test
    void eachLengthIsCheckedAsSoonAsItIsReadable() {
        // the service length alone, 2000, says the frame is over 1024 bytes: nothing more is awaited
        assertMalformed(in -> in.writeBytes(REQUEST, 0, 13).writeShort(2000), true, "service name of 2000 bytes");
        assertMalformed(in -> in.writeBytes(REQUEST, 0, 17).writeShort(1010), true, "method name of 1010 bytes");
        assertMalformed(in -> in.writeBytes(REQUEST, 0, 20).writeInt(1001), true, "body of 1001 bytes");
        assertMalformed(in -> in.writeBytes(REQUEST, 0, 20).writeInt(-1), true, "body length -1");
    }

    @Test
    void aOnewayRequestOverTheLimitExpectsNoAnswer() {
        assertMalformed(in -> in.writeBytes(REQUEST, 0, 3).writeByte(LppProtocol.KIND_ONEWAY)
                .writeBytes(REQUEST, 4, 9).writeShort(2000), false, "service name");
    }

    @Test
    void aFrameWhoseHeadIsWrongCarriesNoIdOrNoAnswer() {
        assertThatThrownBy(() -> decode(in -> in.writeBytes(REQUEST).setByte(1, 0xfd)))
                .isInstanceOfSatisfying(RpcCodecException.class, e -> assertThat(e.rpcRequestId()).isEmpty())
                .hasMessageContaining("magic 0xcafd");
        assertThatThrownBy(() -> decode(in -> in.writeBytes(REQUEST).setByte(2, 2)))
                .isInstanceOfSatisfying(RpcCodecException.class, e -> assertThat(e.rpcRequestId()).isEmpty())
                .hasMessageContaining("version 2");
        assertMalformed(in -> in.writeBytes(REQUEST).setByte(3, 9), false, "kind 9");
    }

    @Test
    void repliesWithTheCallersIdAndTheStatusOfTheError() {
        ByteBuf reply = codec.errorReply(ALLOC, 0, -7, RpcError.NO_ROUTE);
        try {
            assertThat(ByteBufUtil.getBytes(reply)).containsExactly(NO_ROUTE_REPLY);
        } finally {
            reply.release();
        }
        assertThat(codec.httpStatus(RpcError.NO_ROUTE)).isEqualTo(404);
        assertThat(codec.httpStatus(RpcError.NO_HEALTHY_UPSTREAM)).isEqualTo(502);
        assertThat(codec.httpStatus(RpcError.CONNECTION_CLOSED)).isEqualTo(502);
        assertThat(codec.httpStatus(RpcError.OVERFLOW)).isEqualTo(503);
        assertThat(codec.httpStatus(RpcError.TIMEOUT)).isEqualTo(504);
        assertThat(codec.httpStatus(RpcError.MALFORMED)).isEqualTo(500);
    }

    @Test
    void busyAndTimeoutResponsesAskForTheirRetries() {
        for (LppStatus status : LppStatus.values()) {
            ByteBuf response = LppFrameWriter.write(ALLOC, RpcFrame.Kind.RESPONSE, status, 1, "",
                    "", Unpooled.EMPTY_BUFFER);
            LppFrame frame = codec.decode(response);
            assertThat(frame.httpStatus()).isEqualTo(status.httpStatus());
            assertThat(frame.statusError()).isEqualTo(switch (status) {
                case BUSY -> RpcError.OVERFLOW;
                case TIMEOUT -> RpcError.TIMEOUT;
                default -> null;
            });
            frame.release();
            response.release();
        }
        assertThat(LppStatus.httpStatusOf(200)).isEqualTo(500);
    }

    private Detection detect(int... bytes) {
        ByteBuf in = Unpooled.buffer();
        for (int b : bytes) {
            in.writeByte(b);
        }
        try {
            Detection detection = codec.detect(in);
            assertThat(in.readerIndex()).isZero();
            return detection;
        } finally {
            in.release();
        }
    }

    private void assertMalformed(Consumer<ByteBuf> bytes, boolean expectsResponse, String message) {
        assertThatThrownBy(() -> decode(bytes)).isInstanceOfSatisfying(RpcCodecException.class, e -> {
            assertThat(e.rpcRequestId()).hasValue(0x0102030405060708L);
            assertThat(e.expectsResponse()).isEqualTo(expectsResponse);
        }).hasMessageContaining(message);
    }

    private void decode(Consumer<ByteBuf> bytes) {
        ByteBuf in = Unpooled.buffer();
        try {
            bytes.accept(in);
            LppFrame frame = codec.decode(in);
            if (frame != null) {
                frame.release();
            }
        } finally {
            in.release();
        }
    }
}
