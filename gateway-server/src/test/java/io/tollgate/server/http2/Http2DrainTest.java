package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.netty.channel.Channel;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2Error;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Draining a downstream HTTP/2 connection in the two steps of RFC 9113 section 6.8: a GOAWAY
 * (NO_ERROR) with the largest stream id and a PING go out at once; a stream the client opened
 * before it saw them is still served; once the PING is answered (or a second later) the final
 * GOAWAY names the last stream opened; the streams in flight (held by a slow upstream) still
 * complete, a stream opened after the final GOAWAY is not served, and the connection closes once
 * the last stream ended.
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
            RawH2.Frame announced = client.await(f -> f.type() == RawH2.GOAWAY);
            assertThat(announced).isNotNull();
            assertThat(announced.errorCode()).isZero();
            assertThat(lastStreamId(announced)).isEqualTo(Integer.MAX_VALUE);
            RawH2.Frame ping = client.await(f -> f.type() == RawH2.PING);
            client.get(3, "/slow");
            Await.until("stream 3, sent before the final GOAWAY, reached the upstream", Duration.ofSeconds(5),
                    () -> arrived.get() == 2);
            client.frame(RawH2.PING, 0x1, 0, ping.payload());
            RawH2.Frame last = client.await(f -> f.type() == RawH2.GOAWAY);
            assertThat(last.errorCode()).isZero();
            assertThat(lastStreamId(last)).isEqualTo(3);

            client.get(5, "/slow");
            release.countDown();
            List<RawH2.Frame> frames = new ArrayList<>();
            Map<Integer, String> statuses = new HashMap<>();
            RawH2.Frame frame;
            while ((frame = client.read()) != null) {
                frames.add(frame);
                if (frame.type() == RawH2.HEADERS) {
                    statuses.put(frame.stream(), headerStatus(client, frame));
                }
            }

            assertThat(statuses).containsEntry(1, "200").containsEntry(3, "200").doesNotContainKey(5);
            assertThat(frames).anyMatch(f -> f.stream() == 1 && f.type() == RawH2.DATA
                    && new String(f.payload(), StandardCharsets.US_ASCII).equals("done"));
            assertThat(frames).anyMatch(f -> f.stream() == 1 && f.endsStream());
            assertThat(frames).anyMatch(f -> f.stream() == 3 && f.endsStream());
            assertThat(frames).as("only stream 5, opened after the final GOAWAY, is refused (REFUSED_STREAM: safe to retry)")
                    .filteredOn(f -> f.type() == RawH2.RST_STREAM)
                    .extracting(RawH2.Frame::stream, RawH2.Frame::errorCode)
                    .containsExactly(tuple(5, (int) Http2Error.REFUSED_STREAM.code()));
            assertThat(arrived.get()).isEqualTo(2);
            assertThat(connection.closeFuture().await(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aConnectionOfAnotherProtocolIsNotDrained() throws Exception {
        EmbeddedChannel other = new EmbeddedChannel();
        assertThat(Http2Drain.goAway(other, Duration.ofSeconds(1))).isFalse();
        assertThat(other.finishAndReleaseAll()).isFalse();
    }

    private static int lastStreamId(RawH2.Frame goAway) {
        return ByteBuffer.wrap(goAway.payload()).getInt(0) & 0x7fffffff;
    }

    private static String headerStatus(RawH2 client, RawH2.Frame frame) {
        try {
            return String.valueOf(client.headers(frame).status());
        } catch (Http2Exception e) {
            throw new AssertionError(e);
        }
    }
}
