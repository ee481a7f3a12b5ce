package io.tollgate.protocols.http1;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tollgate.core.protocol.Detection;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Http1DetectorTest {

    private final Http1Detector detector = new Http1Detector();

    @ParameterizedTest(name = "matches {0}")
    @ValueSource(strings = {"GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "TRACE", "CONNECT",
        "PROPFIND", "m-search", "SIXTEEN_BYTES_OK"})
    void matchesAMethodTokenFollowedBySpace(String method) {
        assertThat(detect(method + " / HTTP/1.1\r\n")).isEqualTo(Detection.MATCH);
    }

    @ParameterizedTest(name = "needs more after \"{0}\"")
    @ValueSource(strings = {"", "G", "GE", "GET", "PRI", "SIXTEEN_BYTES_OK"})
    void needsMoreForAPrefixOfAMethodToken(String prefix) {
        assertThat(detect(prefix)).isEqualTo(Detection.NEED_MORE);
    }

    @Test
    void refusesTheHttp2Preface() {
        assertThat(detect("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")).isEqualTo(Detection.NO_MATCH);
        assertThat(detect("PRI ")).isEqualTo(Detection.NO_MATCH);
    }

    @Test
    void refusesATokenLongerThanSixteenBytes() {
        assertThat(detect("SEVENTEEN_BYTES_X / HTTP/1.1")).isEqualTo(Detection.NO_MATCH);
        assertThat(detect("SEVENTEEN_BYTES_X")).isEqualTo(Detection.NO_MATCH);
    }

    @Test
    void refusesALeadingSpaceOrASeparatorInTheToken() {
        assertThat(detect(" GET / HTTP/1.1")).isEqualTo(Detection.NO_MATCH);
        assertThat(detect("GE(T / HTTP/1.1")).isEqualTo(Detection.NO_MATCH);
        assertThat(detect("GET\t/ HTTP/1.1")).isEqualTo(Detection.NO_MATCH);
    }

    @Test
    void refusesBoltDubboAndTlsFirstBytes() {
        assertThat(detect(0x01, 0x01, 0x00, 0x01)).isEqualTo(Detection.NO_MATCH);
        assertThat(detect(0x02, 0x01, 0x01, 0x00)).isEqualTo(Detection.NO_MATCH);
        assertThat(detect(0xda, 0xbb, 0xc2, 0x00)).isEqualTo(Detection.NO_MATCH);
        assertThat(detect(0x16, 0x03, 0x01, 0x02)).isEqualTo(Detection.NO_MATCH);
    }

    @Test
    void peeksFromTheReaderIndexWithoutConsuming() {
        ByteBuf in = Unpooled.copiedBuffer("\u0001GET /", StandardCharsets.US_ASCII);
        try {
            in.readerIndex(1);

            assertThat(detector.detect(in)).isEqualTo(Detection.MATCH);
            assertThat(in.readerIndex()).isEqualTo(1);
            assertThat(in.refCnt()).isEqualTo(1);
        } finally {
            in.release();
        }
    }

    @Test
    void isNamedHttp1() {
        assertThat(detector.protocol()).isEqualTo("http1");
    }

    private Detection detect(String text) {
        return detect(text.getBytes(StandardCharsets.US_ASCII));
    }

    private Detection detect(int... octets) {
        byte[] bytes = new byte[octets.length];
        for (int i = 0; i < octets.length; i++) {
            bytes[i] = (byte) octets[i];
        }
        return detect(bytes);
    }

    private Detection detect(byte[] bytes) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        try {
            return detector.detect(in);
        } finally {
            in.release();
        }
    }
}
