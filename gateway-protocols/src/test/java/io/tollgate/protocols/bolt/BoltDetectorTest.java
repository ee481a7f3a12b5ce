package io.tollgate.protocols.bolt;

import static io.tollgate.protocols.bolt.BoltVectors.read;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.protocol.Detection;
import io.tollgate.protocols.rpc.RpcCodecFixtures;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class BoltDetectorTest {

    private final BoltDetector detector = new BoltDetector();

    @Test
    void isRegisteredAsBolt() {
        assertThat(detector.protocol()).isEqualTo("bolt");
    }

    @ParameterizedTest
    @MethodSource("io.tollgate.protocols.bolt.BoltVectors#all")
    void matchesEveryCaptureAndNeedsMoreForItsFirstBytes(String vector) {
        byte[] bytes = read(vector);
        assertThat(detect(bytes)).isEqualTo(Detection.MATCH);
        for (int length = 0; length < 4; length++) {
            assertThat(detect(Arrays.copyOf(bytes, length))).as("first %d bytes", length).isEqualTo(Detection.NEED_MORE);
        }
    }

    @Test
    void matchesAV2HeartbeatAfterFiveBytes() {
        byte[] heartbeat = {BoltProtocol.PROTOCOL_V2, BoltProtocol.V2_VERSION_2, BoltProtocol.TYPE_REQUEST, 0, 0};
        assertThat(detect(Arrays.copyOf(heartbeat, 4))).isEqualTo(Detection.NEED_MORE);
        assertThat(detect(heartbeat)).isEqualTo(Detection.MATCH);
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET / HTTP/1.1", "POST /x HTTP/1.1", "PRI * HTTP/2.0"})
    void doesNotMatchHttp(String start) {
        assertThat(detect(start.getBytes(US_ASCII))).isEqualTo(Detection.NO_MATCH);
    }

    @Test
    void doesNotMatchDubboTlsOrImplausibleBoltHeaders() {
        assertThat(detect(new byte[] {(byte) 0xda, (byte) 0xbb, (byte) 0xc2, 0})).isEqualTo(Detection.NO_MATCH);
        assertThat(detect(new byte[] {0x16, 0x03, 0x01, 0x02})).isEqualTo(Detection.NO_MATCH);
        assertThat(detect(new byte[] {0x01, 0x03, 0x00, 0x01})).as("v1, type 3").isEqualTo(Detection.NO_MATCH);
        assertThat(detect(new byte[] {0x01, 0x01, 0x00, 0x02})).as("v1 request, response cmdcode")
                .isEqualTo(Detection.NO_MATCH);
        assertThat(detect(new byte[] {0x02, 0x09})).as("v2, ver1 9").isEqualTo(Detection.NO_MATCH);
    }

    @Test
    void peeksWithoutConsumingOrReleasing() {
        RpcCodecFixtures.assertMatchesWithoutConsumingOrReleasing(detector, read(BoltVectors.ECHO_REQUEST));
    }

    private Detection detect(byte[] bytes) {
        return RpcCodecFixtures.detect(detector, bytes);
    }
}
