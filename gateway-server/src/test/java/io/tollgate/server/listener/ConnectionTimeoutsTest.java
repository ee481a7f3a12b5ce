package io.tollgate.server.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Connections that send nothing, one byte, or a request head a header at a time are closed at
 * their timeout, on every protocol, and counted; the idle timeouts are left long so that only the
 * new timeouts can close them.
 */
class ConnectionTimeoutsTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: detecting
                port: 0
                protocols: [http1, h2c, bolt]
                protocol_detection_timeout: 300ms
                http: { idle_timeout: 60s, request_headers_timeout: 400ms }
                route_config: ${ROUTES}
              - name: h2
                port: 0
                protocols: [h2c]
                http: { idle_timeout: 60s }
                http2: { first_frame_timeout: 300ms }
                route_config: ${ROUTES}
              - name: bolt
                port: 0
                protocols: [bolt]
                bolt: { idle_timeout: 60s, first_frame_timeout: 300ms }
                route_config: ${ROUTES}
              - name: dubbo
                port: 0
                protocols: [dubbo]
                dubbo: { idle_timeout: 60s, first_frame_timeout: 300ms }
                route_config: ${ROUTES}
            """ + EchoGateway.CLUSTERS;

    private static EchoGateway started;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        started = EchoGateway.start(CONFIG);
        gateway = started.gateway();
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void silentConnectionIsClosedAtTheDetectionTimeout() throws Exception {
        assertClosedAndCounted("detecting", new byte[0], "detection_timeout");
    }

    @Test
    void connectionSendingOneByteIsClosedAtTheDetectionTimeout() throws Exception {
        assertClosedAndCounted("detecting", new byte[] {'G'}, "detection_timeout");
    }

    @Test
    void requestHeadTrickledPastTheTimeoutIsAnswered408AndClosed() throws Exception {
        double before = gateway.count("tollgate.downstream.rq.error", "reason", "request_headers_timeout");
        try (Socket socket = connect("detecting")) {
            OutputStream out = socket.getOutputStream();
            out.write("GET / HTTP/1.1\r\nHost: a\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            boolean closed = false;
            InputStream in = socket.getInputStream();
            socket.setSoTimeout(100);
            StringBuilder answer = new StringBuilder();
            while (!closed && System.nanoTime() < deadline) {
                try {
                    out.write("X-Trickle: 1\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (IOException resetWhileWriting) {
                    break;
                }
                try {
                    int b;
                    while ((b = in.read()) >= 0) {
                        answer.append((char) b);
                    }
                    closed = true;
                } catch (SocketTimeoutException stillOpen) {
                    // the head keeps coming, one header per 100 ms
                } catch (IOException reset) {
                    closed = true;
                }
            }
            assertThat(answer.toString()).startsWith("HTTP/1.1 408 ")
                    .contains("x-tollgate-error: request_headers_timeout")
                    .contains("connection: close");
        }
        assertThat(gateway.count("tollgate.downstream.rq.error", "reason", "request_headers_timeout"))
                .isEqualTo(before + 1);
    }

    @Test
    void keepAliveConnectionWaitingForItsNextRequestIsNotTimedOut() throws Exception {
        try (RawHttp client = new RawHttp(gateway.port("detecting"))) {
            client.send("GET /one HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(client.read(false).status()).isEqualTo(200);
            Thread.sleep(800);
            client.send("GET /two HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(client.read(false).status()).isEqualTo(200);
        }
    }

    @Test
    void h2cConnectionWithoutItsPrefaceIsClosedAtTheFirstFrameTimeout() throws Exception {
        assertClosedAndCounted("h2", new byte[0], "first_frame_timeout");
    }

    @Test
    void boltConnectionWithoutAFrameIsClosedAtTheFirstFrameTimeout() throws Exception {
        assertClosedAndCounted("bolt", new byte[] {1, 1, 0}, "first_frame_timeout");
    }

    @Test
    void dubboConnectionWithoutAFrameIsClosedAtTheFirstFrameTimeout() throws Exception {
        assertClosedAndCounted("dubbo", new byte[0], "first_frame_timeout");
    }

    /** Connects to {@code listener}, sends {@code first}, and expects the gateway to close and count it. */
    private static void assertClosedAndCounted(String listener, byte[] first, String reason) throws Exception {
        double before = rejected(listener, reason);
        try (Socket socket = connect(listener)) {
            socket.getOutputStream().write(first);
            socket.getOutputStream().flush();
            assertClosedWithin(socket, Duration.ofSeconds(5));
        }
        Await.until(reason + " counted", Duration.ofSeconds(5), () -> rejected(listener, reason) > before);
    }

    private static double rejected(String listener, String reason) {
        return gateway.count("tollgate.downstream.cx.rejected", "listener", listener, "reason", reason);
    }

    private static Socket connect(String listener) throws IOException {
        return new Socket("127.0.0.1", gateway.port(listener));
    }

    /** Fails unless the gateway closes {@code socket} within {@code limit}; what it sends first is skipped. */
    static void assertClosedWithin(Socket socket, Duration limit) throws IOException {
        socket.setSoTimeout((int) limit.toMillis());
        try {
            InputStream in = socket.getInputStream();
            while (in.read() >= 0) {
                // an HTTP/2 server's SETTINGS
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("still open after " + limit, e);
        } catch (IOException reset) {
            // closed with a reset: closed all the same
        }
    }
}
