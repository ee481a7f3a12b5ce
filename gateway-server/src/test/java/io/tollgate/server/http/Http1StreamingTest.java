package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.PooledMemory;
import io.tollgate.server.testing.TestGateway;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * 50 MB bodies stream through the gateway in both directions, and while the receiving side does
 * not read, the gateway stops reading the sending side instead of buffering: its pooled memory
 * stays far below the body size.
 */
class Http1StreamingTest {

    private static final long BODY = 50L * 1024 * 1024;
    private static final long MEMORY_BOUND = 24L * 1024 * 1024;
    private static final CountDownLatch uploadMayBeRead = new CountDownLatch(1);
    private static final AtomicLong uploaded = new AtomicLong();
    private static HttpUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstream = new HttpUpstream()
                .handle("/download", exchange -> {
                    exchange.sendResponseHeaders(200, 0);
                    byte[] block = new byte[64 * 1024];
                    try (OutputStream out = exchange.getResponseBody()) {
                        for (long sent = 0; sent < BODY; sent += block.length) {
                            out.write(block);
                        }
                    }
                })
                .handle("/upload", exchange -> {
                    try {
                        uploadMayBeRead.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    uploaded.set(HttpUpstream.drain(exchange.getRequestBody()));
                    exchange.sendResponseHeaders(204, -1);
                    exchange.close();
                });
        gateway = TestGateway.proxyingTo(upstream.port(), "60s");
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void streamsA50MegabyteChunkedResponseToASlowReaderWithBoundedMemory() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", gateway.port("http"))) {
            socket.setReceiveBufferSize(64 * 1024);
            socket.getOutputStream().write("GET /download HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            long growth = PooledMemory.growthFor(1500);
            InputStream in = socket.getInputStream();
            long total = 0;
            byte[] buffer = new byte[256 * 1024];
            int n;
            while (total < BODY && (n = in.read(buffer)) > 0) {
                total += n;
            }
            assertThat(total).isGreaterThanOrEqualTo(BODY);
            assertThat(growth).isLessThan(MEMORY_BOUND);
        }
    }

    @Test
    void streamsA50MegabyteChunkedUploadToASlowUpstreamWithBoundedMemory() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", gateway.port("http"))) {
            OutputStream out = socket.getOutputStream();
            Thread writer = new Thread(() -> {
                try {
                    out.write("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    byte[] chunk = new byte[64 * 1024];
                    byte[] size = (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
                    for (long sent = 0; sent < BODY; sent += chunk.length) {
                        out.write(size);
                        out.write(chunk);
                        out.write('\r');
                        out.write('\n');
                    }
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (Exception ignored) {
                    // the assertions below report a failed upload
                }
            }, "uploader");
            writer.start();
            long growth = PooledMemory.growthFor(1500);
            uploadMayBeRead.countDown();
            writer.join(30_000);
            socket.setSoTimeout(30_000);
            assertThat(new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII))
                    .isEqualTo("HTTP/1.1 204");
            assertThat(uploaded.get()).isEqualTo(BODY);
            assertThat(growth).isLessThan(MEMORY_BOUND);
        }
    }
}
