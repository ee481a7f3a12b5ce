package io.tollgate.protocols.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tollgate.core.protocol.Detection;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class Http2DetectorTest {

    private static final String PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    private final Http2Detector detector = new Http2Detector();

    @Test
    void matchesThePrefaceAndAsksForMoreAtEverySplitPoint() {
        for (int length = 0; length < PREFACE.length(); length++) {
            assertThat(detect(PREFACE.substring(0, length))).as("prefix of %d bytes", length).isEqualTo(Detection.NEED_MORE);
        }
        assertThat(detect(PREFACE)).isEqualTo(Detection.MATCH);
        assertThat(detect(PREFACE + "\0\0\0\4")).isEqualTo(Detection.MATCH);
    }

    @Test
    void refusesHttp1AndMethodsThatOnlyBeginLikeThePreface() {
        assertThat(detect("GET / HTTP/1.1\r\n")).isEqualTo(Detection.NO_MATCH);
        assertThat(detect("PRIX / HTTP/1.1\r\n")).isEqualTo(Detection.NO_MATCH);
    }

    /** The HTTP/2 codec then answers it with GOAWAY PROTOCOL_ERROR, as RFC 9113 section 3.4 asks. */
    @Test
    void claimsABrokenPrefaceOnceItBeganWithPri() {
        assertThat(detect("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n")).isEqualTo(Detection.MATCH);
        assertThat(detect("PRI / HTTP/1.1\r\n")).isEqualTo(Detection.MATCH);
    }

    /** What no protocol claimed: a broken preface when it began with the preface's first byte. */
    @Test
    void answersUnclaimedBytesThatBeganLikeThePreface() {
        assertThat(answers("P\r\n")).isTrue();
        assertThat(answers("PR\0")).isTrue();
        assertThat(answers("PRI\r\n\r\n")).isTrue();
        assertThat(answers("\r\nPRI")).isFalse();
        assertThat(answers("\0\0\0")).isFalse();
        assertThat(answers("")).isFalse();
    }

    @Test
    void readsWithoutConsuming() {
        ByteBuf in = Unpooled.copiedBuffer("x" + PREFACE, StandardCharsets.US_ASCII);
        try {
            in.skipBytes(1);
            assertThat(detector.detect(in)).isEqualTo(Detection.MATCH);
            assertThat(in.readerIndex()).isEqualTo(1);
        } finally {
            in.release();
        }
    }

    private boolean answers(String text) {
        return on(text, detector::answersUnclaimed);
    }

    private Detection detect(String text) {
        return on(text, detector::detect);
    }

    private static <T> T on(String text, Function<ByteBuf, T> look) {
        ByteBuf in = Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
        try {
            return look.apply(in);
        } finally {
            in.release();
        }
    }
}
