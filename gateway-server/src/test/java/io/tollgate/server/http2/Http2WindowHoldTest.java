package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http2.Http2Error;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A client that never opens its flow-control window holds a stream the gateway cannot write to:
 * after the window hold timeout the stream is reset with CANCEL, releasing what it held upstream.
 */
class Http2WindowHoldTest {

    private static final long BODY = 8L * 1024 * 1024;
    private static HttpUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstream = new HttpUpstream().handle("/download", exchange -> {
            try {
                HttpUpstream.respondInBlocks(exchange, BODY, sent -> { });
            } catch (IOException resetByGateway) {
                exchange.close();
            }
        });
        gateway = TestGateway.h2cProxyingTo(upstream.port(), "30s", "http2: { window_hold_timeout: 300ms }");
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void aStreamWhoseWindowStaysClosedIsResetAfterTheHoldTimeout() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface().get(1, "/download");
            long started = System.nanoTime();
            long received = 0;
            RawH2.Frame frame;
            while ((frame = client.read()) != null && frame.type() != RawH2.RST_STREAM) {
                if (frame.type() == RawH2.DATA) {
                    received += frame.payload().length;
                }
            }
            long waitedMillis = (System.nanoTime() - started) / 1_000_000;

            assertThat(frame).isNotNull();
            assertThat(frame.stream()).isEqualTo(1);
            assertThat(frame.errorCode()).isEqualTo((int) Http2Error.CANCEL.code());
            assertThat(received).isLessThanOrEqualTo(65_535);
            assertThat(waitedMillis).isGreaterThanOrEqualTo(250);
        }
    }
}
