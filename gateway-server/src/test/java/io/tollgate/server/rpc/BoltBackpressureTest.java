package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.server.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Backpressure through the Bolt proxy over real sockets, on one event loop so that every client
 * shares one multiplexed upstream connection: a client that stops reading is closed without
 * stalling the others, and an upstream that stops reading stops the gateway reading its client.
 */
class BoltBackpressureTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: bolt
                port: 0
                protocols: [bolt]
                bolt: { max_frame_bytes: 1048576 }
                route_config:
                  virtual_hosts:
                    - name: answering
                      domains: ["answering.service:1.0"]
                      routes: [{ match: { prefix: / }, route: { cluster: answering, timeout: 20s } }]
                    - name: stalled
                      domains: ["stalled.service:1.0"]
                      routes: [{ match: { prefix: / }, route: { cluster: stalled, timeout: 20s } }]
            clusters:
              - name: answering
                endpoints: [{ address: 127.0.0.1, port: ${ANSWERING} }]
              - name: stalled
                endpoints: [{ address: 127.0.0.1, port: ${STALLED} }]
            """;
    private static final int RESPONSE_BYTES = 256 * 1024;

    private static EventLoopGroup group;
    private static AnsweringBoltUpstream answering;
    private static StalledBoltUpstream stalled;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        answering = new AnsweringBoltUpstream(group, RESPONSE_BYTES);
        stalled = new StalledBoltUpstream();
        gateway = TestGateway.start(CONFIG, Map.of("ANSWERING", answering.port(), "STALLED", stalled.port()));
    }

    @AfterAll
    static void stop() throws IOException {
        if (gateway != null) {
            gateway.close();
        }
        answering.close();
        stalled.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void clientThatStopsReadingIsClosedWhileOthersOnItsUpstreamConnectionAreServed() throws Exception {
        int calls = 100;
        double slowBefore = gateway.count("tollgate.downstream.rq.error", "reason", "bolt_slow_client");
        try (Socket slow = new Socket(); RawBoltClient other = new RawBoltClient(group, gateway.port("bolt"))) {
            slow.setReceiveBufferSize(4096);
            slow.connect(new InetSocketAddress("127.0.0.1", gateway.port("bolt")));
            ByteArrayOutputStream burst = new ByteArrayOutputStream();
            for (int id = 1; id <= calls; id++) {
                burst.write(bytes(BoltFrames.request(id, "answering.service:1.0", "never read")));
            }
            // one write, so the gateway reads every call before the first answer can pause it
            slow.getOutputStream().write(burst.toByteArray());

            assertThat(Conditions.within(Duration.ofSeconds(20),
                    () -> gateway.count("tollgate.downstream.rq.error", "reason", "bolt_slow_client") > slowBefore))
                    .isTrue();
            other.send(BoltFrames.request(7, "answering.service:1.0", "still served"));

            assertThat(other.next(3000)).isEqualTo(new RawBoltClient.Received(BoltFrame.Kind.RESPONSE, 7, 0));
            assertThat(Conditions.within(Duration.ofSeconds(10), () -> answering.answered() == calls + 1)).isTrue();
            assertThat(Conditions.within(Duration.ofSeconds(5),
                    () -> gateway.count("tollgate.upstream.rq.late", "cluster", "answering") > 0)).isTrue();
            assertThat(gateway.host("answering", answering.port()).activeRequests()).isZero();
        }
    }

    @Test
    void upstreamThatStopsReadingStopsTheGatewayReadingItsClientUntilItReadsAgain() throws Exception {
        int frames = 160;
        String body = "b".repeat(256 * 1024);
        AtomicLong written = new AtomicLong();
        try (Socket client = new Socket("127.0.0.1", gateway.port("bolt"))) {
            OutputStream out = client.getOutputStream();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    for (int id = 1; id <= frames; id++) {
                        byte[] frame = bytes(BoltFrames.request(id, "stalled.service:1.0", body));
                        out.write(frame);
                        written.addAndGet(frame.length);
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });

            assertThat(Conditions.within(Duration.ofSeconds(10), stalls(written, Duration.ofMillis(300)))).isTrue();
            assertThat(writer).isNotDone();
            assertThat(written.get()).isLessThan(frames * (long) body.length() / 2);

            stalled.resume();
            writer.get(20, TimeUnit.SECONDS);
            assertThat(Conditions.within(Duration.ofSeconds(20), () -> stalled.frames() == frames)).isTrue();
        }
    }

    /** A condition that holds once {@code counter} has not moved for {@code quiet}. */
    private static java.util.function.BooleanSupplier stalls(AtomicLong counter, Duration quiet) {
        long[] last = {-1, System.nanoTime()};
        return () -> {
            long now = System.nanoTime();
            long value = counter.get();
            if (value != last[0]) {
                last[0] = value;
                last[1] = now;
                return false;
            }
            return now - last[1] >= quiet.toNanos();
        };
    }

    private static byte[] bytes(ByteBuf frame) {
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }
}
