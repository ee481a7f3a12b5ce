package io.tollgate.protocols.bolt;

import static io.tollgate.protocols.bolt.BoltVectors.ECHO_REQUEST;
import static io.tollgate.protocols.bolt.BoltVectors.decodeOne;
import static io.tollgate.protocols.bolt.BoltVectors.read;
import static io.tollgate.protocols.bolt.BoltVectors.withFrame;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.pooled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class BoltHeartbeatsTest {

    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    @ParameterizedTest
    @MethodSource("io.tollgate.protocols.bolt.BoltResponsesTest#dialects")
    void acknowledgesAHeartbeatWithItsIdAndDialect(BoltDialect dialect) {
        BoltFrame heartbeat = decodeOne(BoltHeartbeats.request(ALLOC, dialect, 123));
        BoltFrame ack;
        try {
            assertThat(heartbeat.kind()).isEqualTo(BoltFrame.Kind.HEARTBEAT);
            assertThat(heartbeat.timeout()).isEqualTo(BoltProtocol.NO_TIMEOUT);
            assertThat(heartbeat.frameLength()).isEqualTo(BoltLayout.of(dialect.protocolCode(), true).fixedLength
                    + (dialect.hasCrc() ? BoltProtocol.CRC_LENGTH : 0));
            ack = decodeOne(BoltHeartbeats.ack(ALLOC, heartbeat));
        } finally {
            heartbeat.release();
        }
        try {
            assertThat(ack.kind()).isEqualTo(BoltFrame.Kind.HEARTBEAT_ACK);
            assertThat(ack.requestId()).isEqualTo(123);
            assertThat(ack.status()).isEqualTo(BoltStatus.SUCCESS.code());
            assertThat(ack.dialect()).isEqualTo(dialect);
            assertThat(ack.headers()).isEmpty();
            assertThat(ack.content().readableBytes()).isZero();
        } finally {
            ack.release();
        }
    }

    @Test
    void refusesToAcknowledgeARequest() {
        withFrame(pooled(read(ECHO_REQUEST)), request -> {
            assertThatThrownBy(() -> BoltHeartbeats.ack(ALLOC, request))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected: a HEARTBEAT");
        });
    }
}
