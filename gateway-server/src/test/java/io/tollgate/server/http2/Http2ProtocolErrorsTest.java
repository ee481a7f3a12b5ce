package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Protocol errors sent as raw frames get the answer RFC 9113 asks for (a stream or connection
 * error with the right code), and Netty's protections against known attacks hold; after each, a
 * new connection is still served.
 */
class Http2ProtocolErrorsTest {

    private static final AtomicInteger bigRequests = new AtomicInteger();
    /** More than a socket's send buffer grows to (Linux: {@code tcp_wmem}, 4 MiB by default). */
    private static final long HUGE_BODY_BYTES = 64L << 20;
    private static final AtomicLong hugeBodyWritten = new AtomicLong();
    private static HttpUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstream = new HttpUpstream().handle("/big", exchange -> {
            bigRequests.incrementAndGet();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        }).handle("/huge", exchange -> HttpUpstream.respondInBlocks(exchange, HUGE_BODY_BYTES, hugeBodyWritten::addAndGet));
        gateway = TestGateway.start("""
                event_loops: 1
                listeners:
                  - name: h2
                    port: 0
                    protocols: [h2c]
                    http2: { max_header_list_bytes: 16384, max_resets_per_window: 50, reset_window: 30s, max_queued_control_frames: 100 }
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - { match: { prefix: / }, route: { cluster: upstream, timeout: 10s } }
                  - name: mixed
                    port: 0
                    protocols: [http1, h2c]
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - { match: { prefix: / }, route: { cluster: upstream, timeout: 10s } }
                clusters:
                  - name: upstream
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                """, Map.of("PORT", upstream.port()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @AfterEach
    void otherConnectionsAreStillServed() throws Exception {
        for (String listener : new String[] {"h2", "mixed"}) {
            try (RawH2 client = new RawH2(gateway.port(listener))) {
                client.preface().get(1, "/ok");
                RawH2.Frame response = client.await(f -> f.type() == RawH2.HEADERS && f.stream() == 1);
                assertThat(response).isNotNull();
                assertThat(client.headers(response).status().toString()).isEqualTo("200");
            }
        }
    }

    @Test
    void badPrefaceClosesTheConnection() throws Exception {
        byte[] bad = "PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        for (String listener : new String[] {"h2", "mixed"}) {
            try (RawH2 client = new RawH2(gateway.port(listener))) {
                client.raw(bad);
                assertThat(client.closedByServer()).as(listener).isTrue();
            }
        }
    }

    @Test
    void frameOnAClosedStreamIsAStreamClosedError() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface().get(1, "/done");
            assertThat(client.await(f -> f.stream() == 1 && f.endsStream())).isNotNull();
            client.frame(RawH2.DATA, RawH2.END_STREAM, 1, "late".getBytes(StandardCharsets.US_ASCII));
            RawH2.Frame error = client.await(f -> f.type() == RawH2.RST_STREAM || f.type() == RawH2.GOAWAY);
            assertThat(error).isNotNull();
            assertThat(error.errorCode()).isEqualTo((int) Http2Error.STREAM_CLOSED.code());
        }
    }

    @Test
    void bodyLongerThanItsContentLengthResetsOnlyItsStream() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface().frame(RawH2.HEADERS, RawH2.END_HEADERS, 1,
                    client.headerBlock(RawH2.request("POST", "/post").add("content-length", "3")));
            client.frame(RawH2.DATA, RawH2.END_STREAM, 1, "longer than three".getBytes(StandardCharsets.US_ASCII));
            RawH2.Frame error = client.await(f -> f.type() == RawH2.RST_STREAM || f.type() == RawH2.GOAWAY);
            assertThat(error).isNotNull();
            assertThat(error.type()).isEqualTo(RawH2.RST_STREAM);
            assertThat(error.stream()).isEqualTo(1);
            assertThat(error.errorCode()).isEqualTo((int) Http2Error.PROTOCOL_ERROR.code());
            assertServedAgain(client);
        }
    }

    @Test
    void refusesAControlOctetInAHeaderValueWithoutForwardingIt() throws Exception {
        int before = bigRequests.get();
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface().frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1,
                    client.headerBlock(new DefaultHttp2Headers(false).method("GET").path("/big").scheme("http")
                            .authority("test").add("x-smuggled", "a\r\nx-injected: 1")));
            RawH2.Frame error = client.await(f -> f.stream() == 1 || f.type() == RawH2.GOAWAY);
            assertThat(error).isNotNull();
            assertThat(error.type()).isEqualTo(RawH2.RST_STREAM);
            assertThat(error.errorCode()).isEqualTo((int) Http2Error.PROTOCOL_ERROR.code());
            assertServedAgain(client);
        }
        assertThat(bigRequests.get()).isEqualTo(before);
    }

    @Test
    void windowOverflowIsAFlowControlConnectionError() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface().frame(RawH2.WINDOW_UPDATE, 0, 0, ByteBuffer.allocate(4).putInt(0x7fffffff).array());
            RawH2.Frame goAway = client.await(f -> f.type() == RawH2.GOAWAY);
            assertThat(goAway).isNotNull();
            assertThat(goAway.errorCode()).isEqualTo((int) Http2Error.FLOW_CONTROL_ERROR.code());
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void oversizedHeaderBlockIsRefused() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface();
            byte[] block = client.headerBlock(RawH2.request("GET", "/big").add("x-big", "b".repeat(40_000)));
            int chunk = 16_384;
            for (int offset = 0; offset < block.length; offset += chunk) {
                int end = Math.min(block.length, offset + chunk);
                boolean first = offset == 0;
                boolean last = end == block.length;
                int flags = (last ? RawH2.END_HEADERS : 0) | (first ? RawH2.END_STREAM : 0);
                client.frame(first ? RawH2.HEADERS : RawH2.CONTINUATION, flags, 1,
                        java.util.Arrays.copyOfRange(block, offset, end));
            }
            RawH2.Frame answer = client.await(f -> f.type() == RawH2.GOAWAY || f.type() == RawH2.RST_STREAM
                    || f.type() == RawH2.HEADERS);
            assertThat(answer).isNotNull();
            if (answer.type() == RawH2.HEADERS) {
                assertThat(client.headers(answer).status().toString()).isEqualTo("431");
            } else {
                assertThat(answer.errorCode()).isIn((int) Http2Error.PROTOCOL_ERROR.code(),
                        (int) Http2Error.ENHANCE_YOUR_CALM.code());
            }
            assertThat(bigRequests).hasValue(0);
        }
    }

    @Test
    void rapidResetEndsTheConnectionWithEnhanceYourCalm() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface();
            byte[] cancel = ByteBuffer.allocate(4).putInt((int) Http2Error.CANCEL.code()).array();
            // one write: the gateway may close the connection before a frame-by-frame writer is done
            ByteArrayOutputStream burst = new ByteArrayOutputStream();
            for (int stream = 1; stream < 2 * 120; stream += 2) {
                burst.writeBytes(RawH2.frameBytes(RawH2.HEADERS, RawH2.END_HEADERS, stream,
                        client.headerBlock(RawH2.request("POST", "/r"))));
                burst.writeBytes(RawH2.frameBytes(RawH2.RST_STREAM, 0, stream, cancel));
            }
            client.raw(burst.toByteArray());
            RawH2.Frame goAway = client.await(f -> f.type() == RawH2.GOAWAY);
            assertThat(goAway).isNotNull();
            assertThat(goAway.errorCode()).isEqualTo((int) Http2Error.ENHANCE_YOUR_CALM.code());
        }
    }

    @Test
    void settingsFloodFromAClientThatDoesNotReadEndsItsConnectionOnly() throws Exception {
        assertFloodEndsOnlyItsConnection(RawH2.frameBytes(RawH2.SETTINGS, 0, 0, new byte[0]));
    }

    @Test
    void pingFloodFromAClientThatDoesNotReadEndsItsConnectionOnly() throws Exception {
        assertFloodEndsOnlyItsConnection(RawH2.frameBytes(RawH2.PING, 0, 0, new byte[8]));
    }

    @Test
    void continuationFloodEndsItsConnectionOnly() throws Exception {
        try (RawH2 bystander = servedConnection(); RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface().frame(RawH2.HEADERS, 0, 1, client.headerBlock(RawH2.request("GET", "/flood")));
            byte[] empty = RawH2.frameBytes(RawH2.CONTINUATION, 0, 1, new byte[0]);
            sendUntilRefused(client, RawH2.repeated(empty, 1000), 10);

            RawH2.Frame goAway = client.await(f -> f.type() == RawH2.GOAWAY);
            assertThat(goAway).isNotNull();
            assertThat(goAway.errorCode()).isIn((int) Http2Error.ENHANCE_YOUR_CALM.code(),
                    (int) Http2Error.PROTOCOL_ERROR.code());
            assertThat(client.closedByServer()).isTrue();
            assertServedAgain(bystander);
        }
    }

    /**
     * A client that never reads makes the gateway queue an acknowledgement per SETTINGS or PING;
     * past {@code max_queued_control_frames} the gateway ends that connection (GOAWAY
     * ENHANCE_YOUR_CALM when it still fits, then close) while another connection carries on.
     *
     * <p>Acknowledgements queue only once the gateway's socket buffer is full, which the kernel
     * grows to megabytes: filled with 9-byte acknowledgements, that took some 800,000 frames and a
     * minute on a loaded machine. So the client first asks for a body larger than that buffer
     * and floods once the body stopped moving: the gateway's socket is full.
     */
    private static void assertFloodEndsOnlyItsConnection(byte[] frame) throws Exception {
        try (RawH2 bystander = servedConnection(); RawH2 client = new RawH2(gateway.port("h2"), 4096)) {
            long before = hugeBodyWritten.get();
            client.preface().get(1, "/huge").openWindows(1);
            Await.until("the huge body under way", Duration.ofSeconds(10), () -> hugeBodyWritten.get() > before);
            awaitHugeBodyStopped();
            sendUntilRefused(client, RawH2.repeated(frame, 1000), 3000);

            RawH2.Frame goAway = client.await(f -> f.type() == RawH2.GOAWAY);
            if (goAway != null) {
                assertThat(goAway.errorCode()).isEqualTo((int) Http2Error.ENHANCE_YOUR_CALM.code());
            }
            assertThat(client.closedByServer()).isTrue();
            assertServedAgain(bystander);
        }
    }

    /**
     * Returns once the upstream wrote nothing of the huge body for half a second (its
     * writes block: the gateway stopped reading them because its socket to the client is full),
     * or after ten seconds; flooding earlier only takes longer.
     */
    private static void awaitHugeBodyStopped() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long seen = -1;
        while (hugeBodyWritten.get() != seen && System.nanoTime() - deadline < 0) {
            seen = hugeBodyWritten.get();
            TimeUnit.MILLISECONDS.sleep(500);
        }
    }

    /** Writes {@code batch} up to {@code times} times, stopping early when the gateway closed. */
    private static void sendUntilRefused(RawH2 client, byte[] batch, int times) {
        try {
            for (int i = 0; i < times; i++) {
                client.raw(batch);
            }
        } catch (IOException closed) {
            // the gateway ended the connection; what it sent before is read next
        }
    }

    /** A connection to the h2 listener that was served one request on stream 1. */
    private static RawH2 servedConnection() throws Exception {
        RawH2 client = new RawH2(gateway.port("h2"));
        client.preface().get(1, "/before");
        assertServed(client, 1);
        return client;
    }

    /**
     * Found by {@code Http2FramesFuzzTest}: each threw in the conversion to HTTP/1 and ended the
     * connection with GOAWAY INTERNAL_ERROR.
     */
    @Test
    void aRequestWithoutMethodOrPathOrWithASpaceInItsPathIsAStreamErrorAndTheConnectionServesOn() throws Exception {
        int before = bigRequests.get();
        List<Http2Headers> heads = List.of(
                new DefaultHttp2Headers().path("/big").scheme("http").authority("test"),
                new DefaultHttp2Headers().method("GET").scheme("http").authority("test"),
                RawH2.request("GET", "/big rect"),
                new DefaultHttp2Headers().method("CONNECT"));
        for (Http2Headers head : heads) {
            try (RawH2 client = new RawH2(gateway.port("h2"))) {
                client.preface()
                        .frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1, client.headerBlock(head));
                RawH2.Frame error = client.await(f -> f.stream() == 1 || f.type() == RawH2.GOAWAY);
                assertThat(error).as(head.toString()).isNotNull();
                assertThat(error.type()).isEqualTo(RawH2.RST_STREAM);
                assertThat(error.errorCode()).isEqualTo((int) Http2Error.PROTOCOL_ERROR.code());
                assertServedAgain(client);
            }
        }
        assertThat(bigRequests.get()).isEqualTo(before);
    }

    private static void assertServedAgain(RawH2 client) throws Exception {
        client.get(3, "/after");
        assertServed(client, 3);
    }

    private static void assertServed(RawH2 client, int stream) throws Exception {
        RawH2.Frame response = client.await(f -> f.type() == RawH2.HEADERS && f.stream() == stream);
        assertThat(response).isNotNull();
        assertThat(client.headers(response).status().toString()).isEqualTo("200");
    }
}
