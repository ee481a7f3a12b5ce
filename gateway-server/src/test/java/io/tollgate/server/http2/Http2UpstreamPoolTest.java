package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.TestGateway;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The upstream HTTP/2 connections of one event loop to one host, against a host that speaks raw
 * frames: streams respect the host's SETTINGS_MAX_CONCURRENT_STREAMS (another connection opens
 * when one is full), a GOAWAY lets the streams up to its last stream id finish and sends the
 * others again on a new connection, a stream the host resets as refused is sent again, streams
 * the host opens itself are refused, and a host that stops answering is pinged, then closed (a
 * busy connection failing its stream at once, an idle one making way for a new one), while one
 * that answers its pings keeps its connection.
 */
class Http2UpstreamPoolTest {

    private static final String CONFIG = GatewayYaml.http("""
            - match: { prefix: / }
              route: { cluster: h2, timeout: 10s, retry_policy: { retry_on: [connect-failure], num_retries: 1 } }
            """, """
            clusters:
              - name: h2
                protocol: h2
                heartbeat_interval: ${HEARTBEAT}
                endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
            """);

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void streamsBeyondTheHostsMaxConcurrentStreamsOpenAnotherConnection() throws Exception {
        int requests = 10;
        int maxStreams = 4;
        CountDownLatch allArrived = new CountDownLatch(requests);
        AtomicInteger mostOpen = new AtomicInteger();
        AtomicInteger connections = new AtomicInteger();
        try (RawUpstream host = new RawUpstream(socket -> {
            String conn = String.valueOf(connections.incrementAndGet());
            H2Peer peer = new H2Peer(socket, H2Peer.SETTINGS_MAX_CONCURRENT_STREAMS, maxStreams);
            socket.setSoTimeout(50);
            List<Integer> open = new ArrayList<>();
            while (true) {
                try {
                    RawH2.Frame frame = peer.read();
                    if (frame == null) {
                        return;
                    }
                    if (frame.type() == RawH2.HEADERS) {
                        open.add(frame.stream());
                        mostOpen.accumulateAndGet(open.size(), Math::max);
                        allArrived.countDown();
                    }
                } catch (SocketTimeoutException quiet) {
                    // nothing to read: time to see whether every request arrived
                }
                if (allArrived.getCount() == 0) {
                    for (int stream : open) {
                        peer.answer(stream, conn);
                    }
                    open.clear();
                }
            }
        }); TestGateway gateway = TestGateway.start(CONFIG, Map.of("PORT", host.port(), "HEARTBEAT", "30s"))) {
            List<CompletableFuture<HttpResponse<String>>> responses = sendAll(gateway, requests);

            for (CompletableFuture<HttpResponse<String>> response : responses) {
                assertThat(response.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            }
            assertThat(mostOpen.get()).isEqualTo(maxStreams);
            assertThat(host.accepted()).isEqualTo(3);
        }
    }

    @Test
    void goAwayFinishesStreamsUpToItsLastStreamIdAndRetriesTheRestOnANewConnection() throws Exception {
        AtomicInteger connections = new AtomicInteger();
        try (RawUpstream host = new RawUpstream(socket -> {
            String conn = String.valueOf(connections.incrementAndGet());
            H2Peer peer = new H2Peer(socket);
            List<Integer> streams = new ArrayList<>();
            RawH2.Frame frame;
            while ((frame = peer.read()) != null) {
                if (frame.type() != RawH2.HEADERS) {
                    continue;
                }
                if (!conn.equals("1")) {
                    peer.answer(frame.stream(), conn);
                    continue;
                }
                streams.add(frame.stream());
                if (streams.size() == 3) {
                    peer.goAway(streams.get(1));
                    peer.answer(streams.get(0), conn);
                    peer.answer(streams.get(1), conn);
                }
            }
        }); TestGateway gateway = TestGateway.start(CONFIG, Map.of("PORT", host.port(), "HEARTBEAT", "30s"))) {
            List<CompletableFuture<HttpResponse<String>>> responses = sendAll(gateway, 3);

            List<String> servedBy = new ArrayList<>();
            for (CompletableFuture<HttpResponse<String>> response : responses) {
                HttpResponse<String> answered = response.get(10, TimeUnit.SECONDS);
                assertThat(answered.statusCode()).isEqualTo(200);
                servedBy.add(answered.headers().firstValue("x-conn").orElseThrow());
            }
            assertThat(servedBy).containsExactlyInAnyOrder("1", "1", "2");
            assertThat(host.accepted()).isEqualTo(2);
            assertThat(gateway.count("tollgate.upstream.rq.retry", "cluster", "h2")).isEqualTo(1.0);
        }
    }

    @Test
    void streamTheHostResetsAsRefusedIsSentAgain() throws Exception {
        AtomicInteger streams = new AtomicInteger();
        try (RawUpstream host = new RawUpstream(socket -> {
            H2Peer peer = new H2Peer(socket);
            RawH2.Frame frame;
            while ((frame = peer.read()) != null) {
                if (frame.type() != RawH2.HEADERS) {
                    continue;
                }
                if (streams.incrementAndGet() == 1) {
                    peer.send(RawH2.RST_STREAM, 0, frame.stream(), ByteBuffer.allocate(4).putInt(H2Peer.REFUSED_STREAM).array());
                } else {
                    peer.answer(frame.stream(), "1");
                }
            }
        }); TestGateway gateway = TestGateway.start(CONFIG, Map.of("PORT", host.port(), "HEARTBEAT", "30s"))) {
            HttpResponse<String> response = sendAll(gateway, 1).get(0).get(10, TimeUnit.SECONDS);

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(streams.get()).isEqualTo(2);
            assertThat(host.accepted()).isEqualTo(1);
            assertThat(gateway.count("tollgate.upstream.rq.retry", "cluster", "h2")).isEqualTo(1.0);
        }
    }

    @Test
    void streamOpenedByTheHostIsRefused() throws Exception {
        CompletableFuture<Integer> resetCode = new CompletableFuture<>();
        try (RawUpstream host = new RawUpstream(socket -> {
            H2Peer peer = new H2Peer(socket);
            RawH2.Frame frame;
            while ((frame = peer.read()) != null) {
                if (frame.type() == RawH2.HEADERS) {
                    peer.send(RawH2.HEADERS, RawH2.END_HEADERS, 2, new byte[] {(byte) 0x88});
                    peer.answer(frame.stream(), "1");
                }
                if (frame.type() == RawH2.RST_STREAM && frame.stream() == 2) {
                    resetCode.complete(frame.errorCode());
                }
            }
        }); TestGateway gateway = TestGateway.start(CONFIG, Map.of("PORT", host.port(), "HEARTBEAT", "30s"))) {
            HttpResponse<String> response = sendAll(gateway, 1).get(0).get(10, TimeUnit.SECONDS);

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(resetCode.get(5, TimeUnit.SECONDS)).isEqualTo(H2Peer.REFUSED_STREAM);
        }
    }

    @Test
    void hostThatStopsAnsweringIsPingedThenClosedFailingItsStreamAtOnce() throws Exception {
        AtomicBoolean pinged = new AtomicBoolean();
        try (RawUpstream host = new RawUpstream(socket -> {
            H2Peer peer = new H2Peer(socket);
            RawH2.Frame frame;
            while ((frame = peer.read()) != null) {
                if (frame.type() == RawH2.PING && (frame.flags() & 0x1) == 0) {
                    pinged.set(true);
                }
            }
        }); TestGateway gateway = TestGateway.start(CONFIG, Map.of("PORT", host.port(), "HEARTBEAT", "200ms"))) {
            long start = System.nanoTime();
            HttpResponse<String> response = sendAll(gateway, 1).get(0).get(10, TimeUnit.SECONDS);

            assertThat(response.statusCode()).isEqualTo(502);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(pinged).isTrue();
        }
    }

    @Test
    void idleConnectionWhosePingGoesUnansweredIsClosedAndTheNextRequestOpensANewOne() throws Exception {
        AtomicInteger pings = new AtomicInteger();
        CountDownLatch firstClosed = new CountDownLatch(1);
        try (RawUpstream host = pingedHost(false, pings, firstClosed);
                TestGateway gateway = TestGateway.start(CONFIG, Map.of("PORT", host.port(), "HEARTBEAT", "200ms"))) {
            HttpResponse<String> first = sendAll(gateway, 1).get(0).get(10, TimeUnit.SECONDS);
            assertThat(firstClosed.await(10, TimeUnit.SECONDS)).isTrue();
            HttpResponse<String> second = sendAll(gateway, 1).get(0).get(10, TimeUnit.SECONDS);

            assertThat(first.headers().firstValue("x-conn")).contains("1");
            assertThat(pings.get()).isEqualTo(1);
            assertThat(second.statusCode()).isEqualTo(200);
            assertThat(second.headers().firstValue("x-conn")).contains("2");
        }
    }

    @Test
    void hostThatAnswersPingsKeepsItsConnection() throws Exception {
        AtomicInteger pings = new AtomicInteger();
        // the host must answer each PING within the interval: a second, since its thread and the
        // gateway's loop may wait that long for a core on a loaded machine (100 ms did not always do)
        try (RawUpstream host = pingedHost(true, pings, new CountDownLatch(1));
                TestGateway gateway = TestGateway.start(CONFIG, Map.of("PORT", host.port(), "HEARTBEAT", "1s"))) {
            sendAll(gateway, 1).get(0).get(10, TimeUnit.SECONDS);
            // a PING goes out after a check found the one before answered: three make two such checks
            Await.until("three pings answered", Duration.ofSeconds(10), () -> pings.get() >= 3);
            HttpResponse<String> later = sendAll(gateway, 1).get(0).get(10, TimeUnit.SECONDS);

            assertThat(later.headers().firstValue("x-conn")).contains("1");
            assertThat(host.accepted()).isEqualTo(1);
        }
    }

    /**
     * A host that answers every request with its connection's number and counts the gateway's
     * PINGs, acknowledging them when {@code answerPings}; {@code firstClosed} opens when the
     * gateway closed the first connection.
     */
    private static RawUpstream pingedHost(boolean answerPings, AtomicInteger pings, CountDownLatch firstClosed)
            throws Exception {
        AtomicInteger connections = new AtomicInteger();
        return new RawUpstream(socket -> {
            String conn = String.valueOf(connections.incrementAndGet());
            H2Peer peer = new H2Peer(socket);
            RawH2.Frame frame;
            while ((frame = peer.read()) != null) {
                if (frame.type() == RawH2.HEADERS) {
                    peer.answer(frame.stream(), conn);
                }
                if (frame.type() == RawH2.PING && (frame.flags() & 0x1) == 0) {
                    pings.incrementAndGet();
                    if (answerPings) {
                        peer.send(RawH2.PING, 0x1, 0, frame.payload());
                    }
                }
            }
            if (conn.equals("1")) {
                firstClosed.countDown();
            }
        });
    }

    private List<CompletableFuture<HttpResponse<String>>> sendAll(TestGateway gateway, int count) {
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port("http") + "/r" + i))
                    .build();
            responses.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        return responses;
    }
}
