package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.Channel;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2Exception;
import io.tollgate.server.http.Http2Drain;
import io.tollgate.server.listener.CapturingListener;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Draining a downstream HTTP/2 connection: GOAWAY (NO_ERROR) goes out at once, the stream in
 * flight (held by a slow upstream) still completes, a stream the client opens after the GOAWAY
 * is not served, and the connection closes once the last stream ended.
 */
class Http2DrainTest {

    private static final AtomicInteger arrived = new AtomicInteger();
    private static final CountDownLatch release = new CountDownLatch(1);
    private static HttpUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstream = new HttpUpstream().handle("/slow", exchange -> {
            arrived.incrementAndGet();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            HttpUpstream.respond(exchange, 200, "done".getBytes(StandardCharsets.US_ASCII));
        });
        gateway = TestGateway.h2cProxyingTo(upstream.port(), "15s");
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void drainLetsTheStreamInFlightFinishRefusesNewStreamsAndThenCloses() throws Exception {
        try (CapturingListener listener = CapturingListener.of(gateway.gateway(), "h2");
                RawH2 client = new RawH2(listener.port())) {
            client.preface().get(1, "/slow");
            Channel connection = listener.nextConnection();
            Await.until("the request reached the upstream", Duration.ofSeconds(5), () -> arrived.get() == 1);

            assertThat(Http2Drain.goAway(connection, Duration.ofSeconds(10))).isTrue();
            RawH2.Frame goAway = client.await(f -> f.type() == RawH2.GOAWAY);
            assertThat(goAway).isNotNull();
            assertThat(goAway.errorCode()).isZero();
            assertThat(ByteBuffer.wrap(goAway.payload()).getInt(0) & 0x7fffffff).isEqualTo(1);

            client.get(3, "/slow");
            release.countDown();
            List<RawH2.Frame> frames = new ArrayList<>();
            RawH2.Frame frame;
            while ((frame = client.read()) != null) {
                frames.add(frame);
            }

            assertThat(frames).anyMatch(f -> f.stream() == 1 && f.type() == RawH2.HEADERS
                    && headerStatus(client, f).equals("200"));
            assertThat(frames).anyMatch(f -> f.stream() == 1 && f.type() == RawH2.DATA
                    && new String(f.payload(), StandardCharsets.US_ASCII).equals("done"));
            assertThat(frames).anyMatch(f -> f.stream() == 1 && f.endsStream());
            assertThat(frames).noneMatch(f -> f.stream() == 3 && f.type() == RawH2.HEADERS);
            assertThat(frames).noneMatch(f -> f.stream() == 1 && f.type() == RawH2.RST_STREAM);
            assertThat(arrived.get()).isEqualTo(1);
            assertThat(connection.closeFuture().await(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aConnectionOfAnotherProtocolIsNotDrained() throws Exception {
        EmbeddedChannel other = new EmbeddedChannel();
        assertThat(Http2Drain.goAway(other, Duration.ofSeconds(1))).isFalse();
        assertThat(other.finishAndReleaseAll()).isFalse();
    }

    private static String headerStatus(RawH2 client, RawH2.Frame frame) {
        try {
            return String.valueOf(client.headers(frame).status());
        } catch (Http2Exception e) {
            throw new AssertionError(e);
        }
    }
}
