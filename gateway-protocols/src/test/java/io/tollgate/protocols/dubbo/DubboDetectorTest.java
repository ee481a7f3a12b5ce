package io.tollgate.protocols.dubbo;

import static io.tollgate.protocols.dubbo.DubboVectors.read;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.protocol.Detection;
import io.tollgate.protocols.rpc.RpcCodecFixtures;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class DubboDetectorTest {

    private final DubboDetector detector = new DubboDetector();

    @Test
    void isRegisteredAsDubbo() {
        assertThat(detector.protocol()).isEqualTo("dubbo");
    }

    @ParameterizedTest
    @MethodSource("io.tollgate.protocols.dubbo.DubboVectors#all")
    void matchesEveryCaptureOnItsMagicAndNeedsMoreBeforeIt(String vector) {
        byte[] bytes = read(vector);
        assertThat(detect(bytes)).isEqualTo(Detection.MATCH);
        assertThat(detect(Arrays.copyOf(bytes, 2))).isEqualTo(Detection.MATCH);
        assertThat(detect(Arrays.copyOf(bytes, 1))).isEqualTo(Detection.NEED_MORE);
        assertThat(detect(new byte[0])).isEqualTo(Detection.NEED_MORE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET / HTTP/1.1", "POST /x HTTP/1.1", "PRI * HTTP/2.0"})
    void doesNotMatchHttp(String start) {
        assertThat(detect(start.getBytes(US_ASCII))).isEqualTo(Detection.NO_MATCH);
    }

    @Test
    void doesNotMatchBoltTlsOrAWrongSecondByte() {
        assertThat(detect(new byte[] {0x01, 0x01, 0x00, 0x01})).as("bolt v1").isEqualTo(Detection.NO_MATCH);
        assertThat(detect(new byte[] {0x02, 0x01, 0x01})).as("bolt v2").isEqualTo(Detection.NO_MATCH);
        assertThat(detect(new byte[] {0x16, 0x03, 0x01})).as("TLS").isEqualTo(Detection.NO_MATCH);
        assertThat(detect(new byte[] {0x16})).as("one byte that is not 0xda").isEqualTo(Detection.NO_MATCH);
        assertThat(detect(new byte[] {(byte) 0xda, (byte) 0xbc})).isEqualTo(Detection.NO_MATCH);
        assertThat(detect(new byte[] {(byte) 0xbb, (byte) 0xda})).isEqualTo(Detection.NO_MATCH);
    }

    @Test
    void peeksWithoutConsumingOrReleasing() {
        RpcCodecFixtures.assertMatchesWithoutConsumingOrReleasing(detector, read(DubboVectors.ECHO_REQUEST));
    }

    private Detection detect(byte[] bytes) {
        return RpcCodecFixtures.detect(detector, bytes);
    }
}
