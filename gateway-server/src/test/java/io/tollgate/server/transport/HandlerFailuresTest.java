package io.tollgate.server.transport;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.netty.channel.Channel;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.server.listener.CapturingListener;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * An error that ends a client's connection is counted by kind: the client resetting its socket is
 * a {@code peer_reset}, logged at debug; a failure of the gateway's own handlers is
 * {@code unexpected} and logged at WARN, so that a bug does not pass for a reset.
 */
class HandlerFailuresTest {

    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger handlerLog = (Logger) LoggerFactory.getLogger("io.tollgate.server.http.HttpDownstreamHandler");
    private final Logger upstreamLog =
            (Logger) LoggerFactory.getLogger("io.tollgate.server.upstream.http.Http1UpstreamConnection");
    private HttpUpstream upstream;
    private TestGateway gateway;

    @BeforeEach
    void start() throws Exception {
        upstream = new HttpUpstream("up");
        gateway = TestGateway.proxyingTo(upstream.port(), "5s");
        logged.start();
        handlerLog.addAppender(logged);
        upstreamLog.addAppender(logged);
    }

    @AfterEach
    void stop() {
        handlerLog.detachAppender(logged);
        upstreamLog.detachAppender(logged);
        gateway.close();
        upstream.close();
    }

    @Test
    void clientResettingItsConnectionIsCountedAsAPeerReset() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", gateway.port("http"))) {
            socket.getOutputStream().write("GET /partial HTTP/1.1\r\nHo".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            Thread.sleep(100);
            socket.setSoLinger(true, 0);
        }
        Await.until("the reset counted", Duration.ofSeconds(5), () -> errors("downstream", "peer_reset") == 1);
        assertThat(errors("downstream", "unexpected")).isZero();
        assertThat(logged.list).noneMatch(e -> e.getLevel() == Level.WARN);
    }

    @Test
    void failureOfAHandlerIsCountedAsUnexpectedAndLoggedAtWarn() throws Exception {
        try (CapturingListener listener = CapturingListener.of(gateway.gateway(), "http");
                Socket socket = new Socket("127.0.0.1", listener.port())) {
            Channel accepted = listener.nextConnection();
            accepted.eventLoop().execute(() -> accepted.pipeline().fireExceptionCaught(
                    new IllegalStateException("a bug in a handler")));
            socket.setSoTimeout(5000);
            assertThat(socket.getInputStream().read()).as("closed").isEqualTo(-1);
        }
        assertThat(errors("downstream", "unexpected")).isEqualTo(1);
        assertThat(errors("downstream", "peer_reset")).isZero();
        assertThat(logged.list).anyMatch(e -> e.getLevel() == Level.WARN && e.getThrowableProxy() != null
                && e.getThrowableProxy().getMessage().equals("a bug in a handler"));
    }

    @Test
    void clientLeavingWhileItsRequestWaitsForTheUpstreamClosesTheUpstreamConnectionAsRoutine() throws Exception {
        CountDownLatch arrived = new CountDownLatch(1);
        CountDownLatch released = new CountDownLatch(1);
        upstream.handle("/slow", exchange -> {
            arrived.countDown();
            try {
                released.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            HttpUpstream.respond(exchange, 200, new byte[0]);
        });
        try (Socket socket = new Socket("127.0.0.1", gateway.port("http"))) {
            socket.getOutputStream().write("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(arrived.await(5, TimeUnit.SECONDS)).as("the request reached the upstream").isTrue();
        }
        Await.until("the upstream connection closed after the client left", Duration.ofSeconds(5),
                () -> gateway.gateway().metrics().registry().find(MetricNames.UPSTREAM_CX_ACTIVE).gauges().stream()
                        .mapToDouble(g -> g.value()).sum() == 0);
        released.countDown();

        assertThat(errors("upstream", "unexpected")).isZero();
        assertThat(logged.list).noneMatch(e -> e.getLevel() == Level.WARN);
    }

    private double errors(String side, String kind) {
        return gateway.count("tollgate.connection.error", "side", side, "kind", kind);
    }
}
