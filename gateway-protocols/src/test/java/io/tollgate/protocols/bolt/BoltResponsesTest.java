package io.tollgate.protocols.bolt;

import static io.tollgate.protocols.bolt.BoltVectors.ECHO_REQUEST;
import static io.tollgate.protocols.bolt.BoltVectors.decodeOne;
import static io.tollgate.protocols.bolt.BoltVectors.read;
import static io.tollgate.protocols.bolt.BoltVectors.withFrame;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.pooled;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class BoltResponsesTest {

    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    static Stream<BoltDialect> dialects() {
        return Stream.of(BoltDialect.V1_HESSIAN2,
                new BoltDialect(BoltProtocol.PROTOCOL_V2, BoltProtocol.V2_VERSION_1, BoltProtocol.CODEC_JSON, (byte) 0),
                BoltDialect.v2(BoltProtocol.CODEC_PROTOBUF, false),
                BoltDialect.v2(BoltProtocol.CODEC_HESSIAN2, true));
    }

    @Test
    void answersARequestWithAStatusInItsDialectAndId() {
        BoltFrame request = decodeOne(pooled(read(ECHO_REQUEST)));
        BoltFrame response;
        try {
            response = decodeOne(BoltResponses.status(ALLOC, request, BoltStatus.NO_PROCESSOR));
        } finally {
            request.release();
        }
        try {
            assertThat(response.kind()).isEqualTo(BoltFrame.Kind.RESPONSE);
            assertThat(response.requestId()).isEqualTo(1);
            assertThat(response.status()).isEqualTo(6);
            assertThat(response.dialect()).isEqualTo(BoltDialect.V1_HESSIAN2);
            assertThat(response.frameLength()).isEqualTo(BoltProtocol.V1_RESPONSE_HEADER_LENGTH);
        } finally {
            response.release();
        }
    }

    @Test
    void refusesToAnswerAOnewayRequest() {
        withFrame(pooled(read("sofarpc-oneway.request.bin")), oneway -> {
            assertThatThrownBy(() -> BoltResponses.status(ALLOC, oneway, BoltStatus.TIMEOUT))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected: a two-way REQUEST");
        });
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void roundTripsAResponseWithEveryPartThroughTheDecoder(BoltDialect dialect) {
        Map<String, String> headers = new HashMap<>();
        headers.put(BoltProtocol.HEADER_RESPONSE_ERROR, "true");
        headers.put("empty", "");
        headers.put("absent", null);
        headers.put("ünïcode", "värde");
        ByteBuf content = Unpooled.wrappedBuffer(new byte[] {9, 8, 7});

        withFrame(BoltResponses.response(ALLOC, dialect, -7, BoltStatus.SERVER_EXCEPTION,
                "demo.Error", headers, content), frame -> {
            assertThat(frame.kind()).isEqualTo(BoltFrame.Kind.RESPONSE);
            assertThat(frame.dialect()).isEqualTo(dialect);
            assertThat(frame.hasCrc()).isEqualTo(dialect.hasCrc());
            assertThat(frame.requestId()).isEqualTo(-7);
            assertThat(frame.status()).isEqualTo(BoltStatus.SERVER_EXCEPTION.code());
            assertThat(frame.className().toString(US_ASCII)).isEqualTo("demo.Error");
            assertThat(frame.headers()).isEqualTo(headers);
            assertThat(frame.content()).isEqualTo(content);
            assertThat(content.readerIndex()).isZero();
        });
    }

    @Test
    void rejectsAHeaderMapTooLongForItsLengthField() {
        Map<String, String> headers = Map.of("big", "x".repeat(Short.MAX_VALUE));
        assertThatThrownBy(() -> BoltResponses.response(ALLOC, BoltDialect.V1_HESSIAN2, 1, BoltStatus.ERROR, null,
                headers, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("headers: 32778 bytes encoded (expected: <= 32767)");
    }

    @Test
    void validatesTheDialect() {
        assertThatThrownBy(() -> new BoltDialect((byte) 3, (byte) 1, (byte) 1, (byte) 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("protocolCode: 3 (expected: 1 or 2)");
        assertThatThrownBy(() -> new BoltDialect(BoltProtocol.PROTOCOL_V2, (byte) 3, (byte) 1, (byte) 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("protocolVersion: 3 (expected: 1 or 2)");
        assertThat(new BoltDialect(BoltProtocol.PROTOCOL_V1, (byte) 2, (byte) 1, (byte) 1))
                .isEqualTo(BoltDialect.V1_HESSIAN2);
    }
}
