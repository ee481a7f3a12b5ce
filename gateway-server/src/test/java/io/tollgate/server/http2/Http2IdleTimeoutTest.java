package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http2.Http2Error;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The idle timeout of a downstream HTTP/2 connection: closed (GOAWAY, then close) once the client
 * sent nothing for the timeout and no stream is open; kept while a stream waits for its response,
 * however long the client stays silent.
 */
class Http2IdleTimeoutTest {

    /** Never counted down: the slow upstream waits on it for its delay. */
    private static final CountDownLatch never = new CountDownLatch(1);
    private static final long SLOW_MILLIS = 1000;
    private static HttpUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstream = new HttpUpstream().handle("/slow", exchange -> {
            try {
                never.await(SLOW_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            HttpUpstream.respond(exchange, 200, "late".getBytes(StandardCharsets.US_ASCII));
        });
        gateway = TestGateway.h2cProxyingTo(upstream.port(), "10s", "http: { idle_timeout: 300ms }");
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void connectionWithNoStreamOpenIsClosedAfterTheIdleTimeout() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface().get(1, "/quick");
            long idleFrom = System.nanoTime();
            assertThat(client.await(f -> f.stream() == 1 && f.endsStream())).isNotNull();

            RawH2.Frame goAway = client.await(f -> f.type() == RawH2.GOAWAY);
            Duration idle = Duration.ofNanos(System.nanoTime() - idleFrom);

            assertThat(goAway).isNotNull();
            assertThat(goAway.errorCode()).isEqualTo((int) Http2Error.NO_ERROR.code());
            assertThat(client.closedByServer()).isTrue();
            assertThat(idle).isBetween(Duration.ofMillis(250), Duration.ofSeconds(3));
        }
    }

    @Test
    void connectionWithAStreamOpenIsKeptPastTheIdleTimeout() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            long started = System.nanoTime();
            client.preface().get(1, "/slow");

            RawH2.Frame response = client.await(f -> f.type() == RawH2.HEADERS && f.stream() == 1);
            RawH2.Frame body = client.await(f -> f.type() == RawH2.DATA && f.stream() == 1);

            assertThat(response).isNotNull();
            assertThat(client.headers(response).status().toString()).isEqualTo("200");
            assertThat(body).isNotNull();
            assertThat(new String(body.payload(), StandardCharsets.US_ASCII)).isEqualTo("late");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
        }
    }
}
