package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Flow control between an HTTP/1.1 client and an h2 host, both ways. Download: the host sends a
 * large body as fast as its windows allow to a client that does not read; the gateway stops
 * returning credit, so the host stalls after a few windows instead of the gateway buffering the
 * body, and once the client reads, credit flows again and the whole body arrives. Upload: a host
 * that gives no credit stops the gateway reading the client's body, so the client stalls too;
 * once the host opens its windows, the whole body arrives.
 */
class Http2UpstreamFlowControlTest {

    private static final int BODY = 32 * 1024 * 1024;
    private static final int FRAME = 16 * 1024;
    private static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final String CONFIG = GatewayYaml.http("""
            - { match: { prefix: / }, route: { cluster: h2, timeout: 60s } }
            """, """
            clusters:
              - name: h2
                protocol: h2
                endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
            """);

    @Test
    void clientThatDoesNotReadStallsTheHostUntilItReads() throws Exception {
        CompletableFuture<Long> stalledAfter = new CompletableFuture<>();
        try (RawUpstream host = new RawUpstream(socket -> sendBodyAsWindowsAllow(socket, stalledAfter));
                TestGateway gateway = TestGateway.start(CONFIG, Map.of("PORT", host.port()));
                Socket client = new Socket()) {
            client.setReceiveBufferSize(64 * 1024);
            client.connect(new InetSocketAddress("127.0.0.1", gateway.port("http")));
            client.setSoTimeout(10_000);
            OutputStream out = client.getOutputStream();
            out.write("GET /big HTTP/1.1\r\nhost: test\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();

            long sentBeforeReading = stalledAfter.get(10, TimeUnit.SECONDS);

            assertThat(sentBeforeReading).isLessThan(BODY / 4);
            assertThat(readBodyBytes(client.getInputStream())).isEqualTo(BODY);
        }
    }

    @Test
    void hostThatGivesNoCreditStallsTheClientsUploadUntilItDoes() throws Exception {
        AtomicLong uploaded = new AtomicLong();
        CompletableFuture<Long> hostReceived = new CompletableFuture<>();
        CompletableFuture<Void> openWindows = new CompletableFuture<>();
        try (RawUpstream host = new RawUpstream(socket -> receiveBodyWhenAllowed(socket, openWindows, hostReceived));
                TestGateway gateway = TestGateway.start(CONFIG, Map.of("PORT", host.port()));
                Socket client = new Socket()) {
            client.setSendBufferSize(64 * 1024);
            client.connect(new InetSocketAddress("127.0.0.1", gateway.port("http")));
            client.setSoTimeout(10_000);
            CompletableFuture<Void> upload = CompletableFuture.runAsync(() -> upload(client, uploaded));

            long stalledAt = stalledValue(uploaded);
            assertThat(stalledAt).isLessThan(BODY / 4);
            assertThat(upload).isNotDone();

            openWindows.complete(null);
            upload.get(10, TimeUnit.SECONDS);
            assertThat(hostReceived.get(10, TimeUnit.SECONDS)).isEqualTo(BODY);
        }
    }

    /** Writes a POST of {@link #BODY} bytes, counting what the socket took. */
    private static void upload(Socket client, AtomicLong uploaded) {
        try {
            OutputStream out = client.getOutputStream();
            out.write(("POST /up HTTP/1.1\r\nhost: test\r\ncontent-length: " + BODY + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] block = new byte[FRAME];
            for (int i = 0; i < BODY / FRAME; i++) {
                out.write(block);
                uploaded.addAndGet(block.length);
            }
            out.flush();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits (10 s at most) until {@code counter} has not moved for {@link #STALL_NANOS}; returns its value then. */
    private static long stalledValue(AtomicLong counter) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long seen = counter.get();
        long since = System.nanoTime();
        while (System.nanoTime() < deadline) {
            CountDownLatch tick = new CountDownLatch(1);
            tick.await(50, TimeUnit.MILLISECONDS);
            long now = counter.get();
            if (now != seen) {
                seen = now;
                since = System.nanoTime();
            } else if (System.nanoTime() - since > STALL_NANOS) {
                return now;
            }
        }
        throw new AssertionError("still moving after 10 s: " + seen);
    }

    /**
     * Announces a stream window of one frame and gives no credit until {@code openWindows}, then
     * opens both windows as far as they go; reports the body bytes received and answers 200.
     */
    private static void receiveBodyWhenAllowed(Socket socket, CompletableFuture<Void> openWindows,
            CompletableFuture<Long> received) throws Exception {
        H2Peer peer = new H2Peer(socket, H2Peer.SETTINGS_INITIAL_WINDOW_SIZE, FRAME);
        socket.setSoTimeout(50);
        int stream = 0;
        long bytes = 0;
        boolean opened = false;
        while (true) {
            RawH2.Frame frame = null;
            try {
                frame = peer.read();
                if (frame == null) {
                    return;
                }
            } catch (SocketTimeoutException quiet) {
                // nothing to read: see whether the windows may open
            }
            if (frame != null && frame.type() == RawH2.HEADERS) {
                stream = frame.stream();
            }
            if (frame != null && frame.type() == RawH2.DATA) {
                bytes += frame.payload().length;
                if (frame.endsStream()) {
                    received.complete(bytes);
                    peer.answer(frame.stream(), "1");
                }
            }
            if (!opened && openWindows.isDone() && stream != 0 && frame == null) {
                opened = true;
                peer.send(RawH2.WINDOW_UPDATE, 0, 0, increment(Integer.MAX_VALUE - 65_535));
                peer.send(RawH2.WINDOW_UPDATE, 0, stream, increment(Integer.MAX_VALUE - FRAME));
            }
        }
    }

    private static byte[] increment(int bytes) {
        return ByteBuffer.allocate(4).putInt(bytes).array();
    }

    /**
     * Answers the first request with {@link #BODY} bytes in DATA frames, never past the windows the
     * gateway gave; reports the bytes sent when no credit came for {@link #STALL_NANOS}.
     */
    private static void sendBodyAsWindowsAllow(Socket socket, CompletableFuture<Long> stalledAfter) throws Exception {
        H2Peer peer = new H2Peer(socket);
        socket.setSoTimeout(50);
        int stream = 0;
        long connectionWindow = 65_535;
        long streamWindow = 0;
        long sent = 0;
        long lastCredit = System.nanoTime();
        while (sent < BODY) {
            try {
                RawH2.Frame frame = peer.read();
                if (frame == null) {
                    return;
                }
                if (frame.type() == RawH2.HEADERS && stream == 0) {
                    stream = frame.stream();
                    streamWindow = peer.initialWindow();
                    peer.respond(stream, false, "content-length", String.valueOf(BODY));
                } else if (frame.type() == RawH2.WINDOW_UPDATE) {
                    int increment = ByteBuffer.wrap(frame.payload()).getInt() & 0x7fffffff;
                    if (frame.stream() == 0) {
                        connectionWindow += increment;
                    } else {
                        streamWindow += increment;
                    }
                    lastCredit = System.nanoTime();
                }
            } catch (SocketTimeoutException quiet) {
                if (stream != 0 && System.nanoTime() - lastCredit > STALL_NANOS) {
                    stalledAfter.complete(sent);
                }
            }
            while (stream != 0 && sent < BODY && Math.min(connectionWindow, streamWindow) > 0) {
                int length = (int) Math.min(FRAME, Math.min(Math.min(connectionWindow, streamWindow), BODY - sent));
                sent += length;
                connectionWindow -= length;
                streamWindow -= length;
                peer.send(RawH2.DATA, sent == BODY ? RawH2.END_STREAM : 0, stream, new byte[length]);
            }
        }
        stalledAfter.complete(sent);
        while (peer.read() != null) {
            // wait for the gateway to close the connection
        }
    }

    /** Reads one HTTP/1.1 response with a content-length and returns the number of body bytes. */
    private static long readBodyBytes(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            assertThat(b).as("a byte of the response head").isNotNegative();
            head.append((char) b);
        }
        assertThat(head.toString()).startsWith("HTTP/1.1 200");
        byte[] buffer = new byte[64 * 1024];
        long received = 0;
        while (received < BODY) {
            int n = in.read(buffer);
            if (n < 0) {
                break;
            }
            received += n;
        }
        return received;
    }
}
