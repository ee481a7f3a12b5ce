package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * For each RFC 9113 rule the HTTP/2 downstream enforces (stream states, the order of stream ids,
 * request heads and trailers, content-length, padding, flood and reset limits), the legal
 * sequence that resembles what it refuses, sent as raw frames, most in one write so that the
 * gateway reads them in one batch: each is served, and the connection carries on with no reset
 * and no GOAWAY. {@code Http2StrictFramingTest} and {@code Http2ProtocolErrorsTest} hold the
 * illegal neighbours.
 */
class Http2LegalSequencesTest {

    private static final int PRIORITY = 2;
    private static final int PADDED = 0x8;
    private static final int PRIORITY_FLAG = 0x20;
    private static final int BIG_BODY_BYTES = 200_000;

    private static HttpUpstream h1Upstream;
    private static H2Upstream h2Upstream;
    private static TestGateway gateway;
    private RawH2 client;
    private Frames frames;

    @BeforeAll
    static void start() throws Exception {
        h1Upstream = new HttpUpstream()
                .handle("/big", exchange -> HttpUpstream.respond(exchange, 200, new byte[BIG_BODY_BYTES]))
                .handle("/", exchange -> {
                    HttpUpstream.drain(exchange.getRequestBody());
                    HttpUpstream.respond(exchange, 200, "ok".getBytes(StandardCharsets.US_ASCII));
                });
        h2Upstream = new H2Upstream();
        gateway = TestGateway.start("""
                event_loops: 1
                listeners:
                  - name: h2
                    port: 0
                    protocols: [h2c]
                    http2: { max_resets_per_window: 50, reset_window: 30s, max_queued_control_frames: 100 }
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - { match: { prefix: /echo/ }, route: { cluster: h2, timeout: 10s } }
                            - { match: { prefix: / }, route: { cluster: h1, timeout: 10s } }
                  - name: two-streams
                    port: 0
                    protocols: [h2c]
                    http2: { max_concurrent_streams: 2 }
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - { match: { prefix: / }, route: { cluster: h2, timeout: 10s } }
                clusters:
                  - name: h1
                    endpoints: [ { address: 127.0.0.1, port: ${H1} } ]
                  - name: h2
                    protocol: h2
                    endpoints: [ { address: 127.0.0.1, port: ${H2} } ]
                """, Map.of("H1", h1Upstream.port(), "H2", h2Upstream.port()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        h1Upstream.close();
        h2Upstream.close();
    }

    /** Every case leaves its connection serving: a last request on a fresh stream is answered. */
    @AfterEach
    void theConnectionServesOn() throws Exception {
        if (client == null) {
            return;
        }
        try (RawH2 used = client) {
            used.get(frames.nextStream(), "/after");
            assertThat(frames.response(frames.nextStream()).status).isEqualTo("200");
        }
    }

    private void connect() throws Exception {
        connect("h2");
    }

    private void connect(String listener) throws Exception {
        client = new RawH2(gateway.port(listener));
        client.preface();
        frames = new Frames(client);
    }

    @Test
    void trailersAfterDataInTheReadThatOpenedTheStream() throws Exception {
        connect();
        client.raw(concat(head(1, 0, post("/echo/a")), data(1, 0, "hello"), head(1, RawH2.END_STREAM, trailer("x-t", "1"))));
        Answer answer = frames.response(1);
        assertThat(answer.status).isEqualTo("200");
        assertThat(answer.body).contains("t-x-t: 1\n").contains("body-bytes: 5\n");
    }

    @Test
    void trailersAfterDataInALaterRead() throws Exception {
        connect();
        // the PING's acknowledgement says the gateway decoded what came before it
        client.raw(concat(head(1, 0, post("/echo/a")), data(1, 0, "hello"), RawH2.frameBytes(RawH2.PING, 0, 0, new byte[8])));
        frames.awaitPingAck();
        client.raw(head(1, RawH2.END_STREAM, trailer("x-t", "2")));
        assertThat(frames.response(1).body).contains("t-x-t: 2\n").contains("body-bytes: 5\n");
    }

    @Test
    void trailersWithNoDataAndEmptyDataFramesBetween() throws Exception {
        connect();
        client.raw(concat(head(1, 0, post("/echo/a")), head(1, RawH2.END_STREAM, trailer("x-t", "3")),
                head(3, 0, post("/echo/b")), data(3, 0, ""), data(3, 0, "ab"), data(3, 0, ""),
                head(3, RawH2.END_STREAM, trailer("x-t", "4"))));
        assertThat(frames.response(1).body).contains("t-x-t: 3\n").contains("body-bytes: 0\n");
        assertThat(frames.response(3).body).contains("t-x-t: 4\n").contains("body-bytes: 2\n");
    }

    /** gRPC's way to end a request: an empty DATA frame with END_STREAM after the body. */
    @Test
    void anEmptyDataFrameEndsTheStream() throws Exception {
        connect();
        client.raw(concat(head(1, 0, post("/echo/a")), data(1, 0, "abc"), data(1, RawH2.END_STREAM, "")));
        assertThat(frames.response(1).body).contains("body-bytes: 3\n");
    }

    /** More streams ended on their HEADERS in one read than the ids the stream check remembers. */
    @Test
    void manyRequestsEndingOnHeadersInOneRead() throws Exception {
        connect();
        ByteArrayOutputStream burst = new ByteArrayOutputStream();
        for (int stream = 1; stream <= 39; stream += 2) {
            burst.writeBytes(head(stream, RawH2.END_STREAM, RawH2.request("GET", "/many")));
        }
        client.raw(burst.toByteArray());
        for (int stream = 1; stream <= 39; stream += 2) {
            assertThat(frames.response(stream).status).as("stream %d", stream).isEqualTo("200");
        }
    }

    /** Ids may skip upward (RFC 9113 5.1.1: the skipped ones are closed); only a lower one is an error. */
    @Test
    void streamIdsThatSkipUpward() throws Exception {
        connect();
        client.raw(concat(head(3, RawH2.END_STREAM, RawH2.request("GET", "/three")),
                head(11, RawH2.END_STREAM, RawH2.request("GET", "/eleven"))));
        assertThat(frames.response(3).status).isEqualTo("200");
        assertThat(frames.response(11).status).isEqualTo("200");
    }

    /** A head or trailers split into HEADERS and CONTINUATION frames; END_STREAM sits on the HEADERS frame. */
    @Test
    void continuationFramesForAHeadAndForTrailers() throws Exception {
        connect();
        byte[] block = client.headerBlock(post("/echo/c").add("x-long", "v".repeat(300)));
        byte[] trailerBlock = client.headerBlock(trailer("x-t", "5").add("x-t-long", "w".repeat(200)));
        int half = block.length / 2;
        int third = trailerBlock.length / 3;
        client.raw(concat(
                RawH2.frameBytes(RawH2.HEADERS, 0, 1, Arrays.copyOfRange(block, 0, half)),
                RawH2.frameBytes(RawH2.CONTINUATION, RawH2.END_HEADERS, 1, Arrays.copyOfRange(block, half, block.length)),
                data(1, 0, "xyz"),
                RawH2.frameBytes(RawH2.HEADERS, RawH2.END_STREAM, 1, Arrays.copyOfRange(trailerBlock, 0, third)),
                RawH2.frameBytes(RawH2.CONTINUATION, 0, 1, Arrays.copyOfRange(trailerBlock, third, 2 * third)),
                RawH2.frameBytes(RawH2.CONTINUATION, RawH2.END_HEADERS, 1,
                        Arrays.copyOfRange(trailerBlock, 2 * third, trailerBlock.length))));
        Answer answer = frames.response(1);
        assertThat(answer.body).contains("h-x-long: " + "v".repeat(300) + "\n").contains("t-x-t: 5\n")
                .contains("t-x-t-long: " + "w".repeat(200) + "\n").contains("body-bytes: 3\n");
    }

    /** content-length is checked against the sum of the DATA frames, padding excluded, trailers or not. */
    @Test
    void contentLengthMatchedAcrossSeveralPaddedDataFrames() throws Exception {
        connect();
        client.raw(concat(head(1, 0, post("/echo/cl").add("content-length", "10")),
                data(1, 0, "abc"), paddedData(1, 0, "def", 7), data(1, RawH2.END_STREAM, "ghij"),
                head(3, 0, post("/echo/cl").add("content-length", "4")), paddedData(3, 0, "wxyz", 0),
                head(3, RawH2.END_STREAM, trailer("x-t", "6")),
                head(5, RawH2.END_STREAM, post("/echo/zero").add("content-length", "0"))));
        assertThat(frames.response(1).body).contains("body-bytes: 10\n");
        assertThat(frames.response(3).body).contains("body-bytes: 4\n").contains("t-x-t: 6\n");
        assertThat(frames.response(5).status).isEqualTo("200");
    }

    /** Padding and a priority block on HEADERS (RFC 9113 6.2), the flags a decoder must strip. */
    @Test
    void paddedHeadersWithAPriorityBlock() throws Exception {
        connect();
        byte[] block = client.headerBlock(RawH2.request("GET", "/echo/padded"));
        ByteBuffer payload = ByteBuffer.allocate(1 + 5 + block.length + 16);
        payload.put((byte) 16).putInt(0).put((byte) 15).put(block).put(new byte[16]);
        client.raw(RawH2.frameBytes(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM | PADDED | PRIORITY_FLAG, 1,
                payload.array()));
        assertThat(frames.response(1).body).contains("path: /echo/padded\n");
    }

    /**
     * PRIORITY may name an idle stream (RFC 9113 5.1, 5.3.2) without opening it: a lower id may
     * still be opened after, and the idle one too.
     */
    @Test
    void priorityOnIdleStreamsOpensNone() throws Exception {
        connect();
        client.raw(concat(priority(9, 0), priority(5, 9),
                head(1, RawH2.END_STREAM, RawH2.request("GET", "/one")),
                head(5, RawH2.END_STREAM, RawH2.request("GET", "/five"))));
        assertThat(frames.response(1).status).isEqualTo("200");
        assertThat(frames.response(5).status).isEqualTo("200");
        client.raw(head(9, RawH2.END_STREAM, RawH2.request("GET", "/nine")));
        assertThat(frames.response(9).status).isEqualTo("200");
    }

    /**
     * A half-closed (remote) stream, the request ended and the response under way, may receive
     * WINDOW_UPDATE and PRIORITY (RFC 9113 5.1): the response stalls on the client's window
     * until the client opens it.
     */
    @Test
    void windowUpdateAndPriorityOnAHalfClosedRemoteStream() throws Exception {
        connect();
        client.get(1, "/big");
        frames.awaitData(1, 65_535);
        client.raw(concat(priority(1, 0), windowUpdate(1, 1 << 20), windowUpdate(0, 1 << 20)));
        Answer answer = frames.response(1);
        assertThat(answer.status).isEqualTo("200");
        assertThat(answer.bodyBytes).isEqualTo(BIG_BODY_BYTES);
    }

    /**
     * Shortly after a stream closed, RST_STREAM, WINDOW_UPDATE and PRIORITY on it are ignored
     * (RFC 9113 5.1, "closed").
     */
    @Test
    void resetWindowUpdateAndPriorityOnAStreamJustClosed() throws Exception {
        connect();
        client.get(1, "/done");
        assertThat(frames.response(1).status).isEqualTo("200");
        client.raw(concat(rst(1, Http2Error.CANCEL), windowUpdate(1, 100), priority(1, 0)));
    }

    /** The client's frames in flight on a stream the gateway reset (a malformed head) are no connection error. */
    @Test
    void dataAndTrailersInFlightOnAStreamTheGatewayReset() throws Exception {
        connect();
        Http2Headers noScheme = new DefaultHttp2Headers().method("POST").path("/echo/x").authority("test");
        client.raw(concat(head(1, 0, noScheme), data(1, 0, "in flight"), head(1, RawH2.END_STREAM, trailer("x-t", "7"))));
        assertThat(frames.reset(1)).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
        client.raw(concat(data(1, 0, "later"), head(1, RawH2.END_STREAM, trailer("x-t", "8"))));
    }

    /**
     * A client may open streams before it has read the gateway's SETTINGS (RFC 9113 6.5.2: no
     * limit until then); the gateway refuses those past its limit (REFUSED_STREAM), and their
     * frames in flight are ignored as on any stream it reset (RFC 9113 5.1, "closed").
     */
    @Test
    void framesInFlightOnStreamsRefusedOverTheConcurrencyLimit() throws Exception {
        connect("two-streams");
        client.raw(concat(head(1, 0, post("/echo/1")), head(3, 0, post("/echo/3")), head(5, 0, post("/echo/5")),
                data(1, RawH2.END_STREAM, "a"), data(3, RawH2.END_STREAM, "b"), data(5, 0, "c"),
                head(5, RawH2.END_STREAM, trailer("x-t", "9"))));
        assertThat(frames.reset(5)).isEqualTo(Http2Error.REFUSED_STREAM.code());
        assertThat(frames.response(1).body).contains("body-bytes: 1\n");
        assertThat(frames.response(3).body).contains("body-bytes: 1\n");
    }

    /** The limit itself holds, whether or not the client acknowledged the SETTINGS that set it. */
    @Test
    void aStreamPastTheLimitIsRefusedAfterTheSettingsWereAcknowledged() throws Exception {
        connect("two-streams");
        client.frame(RawH2.SETTINGS, 0x1, 0, new byte[0]);
        client.raw(concat(head(1, 0, post("/echo/1")), head(3, 0, post("/echo/3")), head(5, 0, post("/echo/5")),
                data(5, RawH2.END_STREAM, "c"), data(1, RawH2.END_STREAM, "a"), data(3, RawH2.END_STREAM, "b")));
        assertThat(frames.reset(5)).isEqualTo(Http2Error.REFUSED_STREAM.code());
        assertThat(frames.response(1).status).isEqualTo("200");
        assertThat(frames.response(3).status).isEqualTo("200");
    }

    /** A client that cancels some of its streams, under the reset limit, is not taken for a rapid-reset attack. */
    @Test
    void aFewCancelledStreams() throws Exception {
        connect();
        ByteArrayOutputStream burst = new ByteArrayOutputStream();
        for (int stream = 1; stream <= 19; stream += 2) {
            burst.writeBytes(head(stream, 0, post("/cancelled")));
            burst.writeBytes(rst(stream, Http2Error.CANCEL));
        }
        client.raw(burst.toByteArray());
    }

    /** SETTINGS and PING from a client that reads its acknowledgements, under the flood limit. */
    @Test
    void settingsAndPingsThatAreRead() throws Exception {
        connect();
        for (int round = 0; round < 5; round++) {
            client.raw(concat(RawH2.frameBytes(RawH2.SETTINGS, 0, 0, new byte[0]),
                    RawH2.frameBytes(RawH2.PING, 0, 0, new byte[8])));
            frames.awaitPingAck();
        }
    }

    /**
     * Header fields HTTP/2 allows that look like ones it refuses: {@code te: trailers} (the only
     * TE allowed), a Host equal to {@code :authority}, a tab inside a value, an empty value,
     * cookies split over several fields (RFC 9113 8.2.3).
     */
    @Test
    void headerFieldsThatAreAllowed() throws Exception {
        connect();
        client.raw(head(1, RawH2.END_STREAM, RawH2.request("GET", "/echo/h").add("te", "trailers").add("host", "test")
                .add("x-tab", "a\tb").add("x-empty", "").add("cookie", "a=1").add("cookie", "b=2")));
        Answer answer = frames.response(1);
        assertThat(answer.status).isEqualTo("200");
        assertThat(answer.body).contains("h-te: trailers\n").contains("h-x-tab: a\tb\n").contains("h-x-empty: \n")
                .contains("a=1").contains("b=2");
    }

    private static Http2Headers post(String path) {
        return RawH2.request("POST", path);
    }

    private static Http2Headers trailer(String name, String value) {
        return new DefaultHttp2Headers().add(name, value);
    }

    private byte[] head(int stream, int flags, Http2Headers headers) throws Exception {
        frames.highest = Math.max(frames.highest, stream);
        return RawH2.frameBytes(RawH2.HEADERS, RawH2.END_HEADERS | flags, stream, client.headerBlock(headers));
    }

    private static byte[] data(int stream, int flags, String text) {
        return RawH2.frameBytes(RawH2.DATA, flags, stream, text.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] paddedData(int stream, int flags, String text, int padding) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer payload = ByteBuffer.allocate(1 + bytes.length + padding).put((byte) padding).put(bytes);
        return RawH2.frameBytes(RawH2.DATA, flags | PADDED, stream, payload.array());
    }

    private static byte[] priority(int stream, int dependsOn) {
        return RawH2.frameBytes(PRIORITY, 0, stream, ByteBuffer.allocate(5).putInt(dependsOn).put((byte) 15).array());
    }

    private static byte[] windowUpdate(int stream, int increment) {
        return RawH2.frameBytes(RawH2.WINDOW_UPDATE, 0, stream, ByteBuffer.allocate(4).putInt(increment).array());
    }

    private static byte[] rst(int stream, Http2Error error) {
        return RawH2.frameBytes(RawH2.RST_STREAM, 0, stream, ByteBuffer.allocate(4).putInt((int) error.code()).array());
    }

    private static byte[] concat(byte[]... frames) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] frame : frames) {
            all.writeBytes(frame);
        }
        return all.toByteArray();
    }

    /** One stream's answer as read: status, body (as text and its size) and trailers. */
    private static final class Answer {
        String status;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        String body;
        int bodyBytes;
        long reset = -1;
        boolean ended;
    }

    /**
     * Reads the gateway's frames in order (each HEADERS block through the one HPACK decoder, as
     * the dynamic table needs), files them by stream, and fails at once on GOAWAY.
     */
    private static final class Frames {
        private final RawH2 client;
        private final Map<Integer, Answer> answers = new HashMap<>();
        /** The highest stream id used so far, -1 before any. */
        private int highest = -1;
        private boolean pingAcked;

        Frames(RawH2 client) {
            this.client = client;
        }

        int nextStream() {
            return highest + 2;
        }

        Answer response(int stream) throws Exception {
            Answer answer = until(stream, a -> a.ended || a.reset >= 0);
            assertThat(answer.reset).as("stream %d reset", stream).isEqualTo(-1);
            return answer;
        }

        long reset(int stream) throws Exception {
            return until(stream, a -> a.reset >= 0 || a.ended).reset;
        }

        void awaitData(int stream, int bytes) throws Exception {
            until(stream, a -> a.bytes.size() >= bytes || a.ended);
        }

        void awaitPingAck() throws Exception {
            pingAcked = false;
            while (!pingAcked) {
                readOne();
            }
        }

        private Answer until(int stream, java.util.function.Predicate<Answer> done) throws Exception {
            highest = Math.max(highest, stream);
            Answer answer = answers.computeIfAbsent(stream, s -> new Answer());
            while (!done.test(answer)) {
                readOne();
            }
            return answer;
        }

        private void readOne() throws Exception {
            RawH2.Frame frame = client.read();
            assertThat(frame).as("a frame before the connection closed").isNotNull();
            assertThat(frame.type()).as(() -> "no GOAWAY, got: " + new String(frame.payload(), StandardCharsets.US_ASCII))
                    .isNotEqualTo(RawH2.GOAWAY);
            if (frame.type() == RawH2.PING && (frame.flags() & 0x1) != 0) {
                pingAcked = true;
                return;
            }
            if (frame.stream() == 0) {
                return;
            }
            highest = Math.max(highest, frame.stream());
            Answer answer = answers.computeIfAbsent(frame.stream(), s -> new Answer());
            if (frame.type() == RawH2.HEADERS) {
                Http2Headers headers = client.headers(frame);
                if (answer.status == null) {
                    answer.status = headers.status().toString();
                }
            } else if (frame.type() == RawH2.DATA) {
                answer.bytes.writeBytes(frame.payload());
            } else if (frame.type() == RawH2.RST_STREAM) {
                answer.reset = frame.errorCode();
                return;
            }
            if (frame.endsStream()) {
                answer.ended = true;
                answer.body = answer.bytes.toString(StandardCharsets.UTF_8);
                answer.bodyBytes = answer.bytes.size();
            }
        }
    }
}
