package io.tollgate.server.network;

import static io.tollgate.server.network.TcpProxyTest.CHUNK;
import static io.tollgate.server.network.TcpProxyTest.GIGABYTE;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.listener.CapturingListener;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.PooledMemory;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The TCP proxy with {@code splice: true} on native epoll, over real sockets: a gigabyte each way
 * with no buffer memory and exact byte counts, half-close both ways after bulk, a slow reader that
 * throttles its sender, a host dying mid-stream, the idle timeout of a spliced connection, no
 * descriptor left after many connections, and no splicing where it must not happen (NIO, a filter
 * that reads the bytes, a short conversation).
 */
class TcpProxySpliceTest {

    /**
     * What the buffer path may move of bulk that begins when nothing waits to be written, before a
     * relay starts: the relay starts after the first read batch (Netty's epoll socket reads at most
     * 16 times per batch, at most 64 KiB each) whose bytes all went out at once, and on a busy
     * machine the socket may not take the very first batch at once (ACKs processed late): two batches.
     */
    private static final long BEFORE_RELAY = 2 * 16L * 64 * 1024;

    private final StartedResources started = new StartedResources();

    @AfterEach
    void stop() {
        started.close();
    }

    @Test
    void movesAGigabyteEachWayBySpliceWithoutBufferMemoryAndCountsEveryByte() throws Exception {
        RawUpstream echo = started.add(new RawUpstream(TcpProxyTest::echoThenSayEnd));
        TestGateway gateway = splicingGateway(echo.port(), "", "");
        // sampled once the connection splices: the bytes read before the switch took buffers, those after none
        try (Socket client = splicedConnection(gateway)) {
            assertThat(TcpProxyTest.echoAGigabyteBothWays(gateway, client, 1L << 20))
                    .as("allocator memory held while splicing 2 GiB").isLessThan(16L << 20);
        }
        assertThat(gateway.count("tollgate.tcp.cx.spliced", "listener", "tcp", "cluster", "upstream")).isEqualTo(1);
    }

    @Test
    void aClientsFinAfterBulkReachesTheHostWhoseAnswerStillComesBack() throws Exception {
        CompletableFuture<Long> heard = new CompletableFuture<>();
        CompletableFuture<Void> firstHalfRead = new CompletableFuture<>();
        RawUpstream upstream = started.add(new RawUpstream(socket -> {
            heard.complete(readCrc(socket.getInputStream(), -1));
            answerInHalves(socket, 8L << 20, 5, firstHalfRead);
        }));
        TestGateway gateway = splicingGateway(upstream.port(), "", "");
        long splicedBeforeSecondHalf;
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            client.setSoTimeout(30_000);
            long sent = writeRandom(client.getOutputStream(), 16L << 20, 4);
            client.shutdownOutput();
            assertThat(heard.get(30, TimeUnit.SECONDS)).as("what the host read up to the client's FIN").isEqualTo(sent);
            splicedBeforeSecondHalf = readFirstHalf(client, gateway, 8L << 20, 5, firstHalfRead);
            assertThat(readCrc(client.getInputStream(), -1)).as("the answer's second half")
                    .isEqualTo(crcOfRandom(8L << 20, 6));
        }
        assertThat(gateway.count("tollgate.tcp.cx.spliced", "listener", "tcp")).isEqualTo(1);
        Await.until("both directions counted", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.tcp.rx_bytes", "listener", "tcp") == 16L << 20
                        && gateway.count("tollgate.tcp.tx_bytes", "listener", "tcp") == 16L << 20);
        assertThat(splicedBytes(gateway) - splicedBeforeSecondHalf)
                .as("the answer's second half, sent when nothing waited to be written: spliced, but for the read batches"
                        + " before the relay starts (at most " + BEFORE_RELAY + " bytes)")
                .isGreaterThanOrEqualTo((8L << 20) - BEFORE_RELAY);
    }

    @Test
    void aBulkAnswerToAClientThatHalfClosedAfterAShortRequestSplices() throws Exception {
        CompletableFuture<Long> heard = new CompletableFuture<>();
        CompletableFuture<Void> firstHalfRead = new CompletableFuture<>();
        RawUpstream upstream = started.add(new RawUpstream(socket -> {
            heard.complete(readCrc(socket.getInputStream(), -1));
            answerInHalves(socket, 32L << 20, 11, firstHalfRead);
        }));
        TestGateway gateway = splicingGateway(upstream.port(), "", "");
        long splicedBeforeSecondHalf;
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            client.setSoTimeout(30_000);
            long sent = writeRandom(client.getOutputStream(), 1024, 10);
            client.shutdownOutput();
            assertThat(heard.get(30, TimeUnit.SECONDS)).as("the request up to the client's FIN").isEqualTo(sent);
            splicedBeforeSecondHalf = readFirstHalf(client, gateway, 32L << 20, 11, firstHalfRead);
            assertThat(readCrc(client.getInputStream(), -1)).as("the answer's second half")
                    .isEqualTo(crcOfRandom(32L << 20, 12));
        }
        Await.until("both directions counted", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.tcp.rx_bytes", "listener", "tcp") == 1024
                        && gateway.count("tollgate.tcp.tx_bytes", "listener", "tcp") == 64L << 20);
        assertThat(gateway.count("tollgate.tcp.cx.spliced", "listener", "tcp")).isEqualTo(1);
        assertThat(splicedBytes(gateway) - splicedBeforeSecondHalf)
                .as("the answer's second half, sent when nothing waited to be written: spliced, but for the read batches"
                        + " before the relay starts (at most " + BEFORE_RELAY + " bytes)")
                .isGreaterThanOrEqualTo((32L << 20) - BEFORE_RELAY);
        Await.until("the connection closed", Duration.ofSeconds(5), () -> activeConnections(gateway) == 0);
    }

    @Test
    void aHostsFinAfterBulkReachesTheClientWhichStillSendsAfterIt() throws Exception {
        CompletableFuture<Long> heardFirstHalf = new CompletableFuture<>();
        CompletableFuture<Long> heardSecondHalf = new CompletableFuture<>();
        RawUpstream upstream = started.add(new RawUpstream(socket -> {
            writeRandom(socket.getOutputStream(), 16L << 20, 8);
            socket.shutdownOutput();
            // read nothing for a while: the gateway's writes to this half-closed connection must wait
            TimeUnit.MILLISECONDS.sleep(300);
            heardFirstHalf.complete(readCrc(socket.getInputStream(), 8L << 20));
            heardSecondHalf.complete(readCrc(socket.getInputStream(), -1));
        }));
        TestGateway gateway = splicingGateway(upstream.port(), "", "");
        long splicedBeforeSecondHalf;
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            client.setSoTimeout(30_000);
            assertThat(readCrc(client.getInputStream(), -1)).as("the host's bytes up to its FIN")
                    .isEqualTo(crcOfRandom(16L << 20, 8));
            long firstHalf = writeRandom(client.getOutputStream(), 8L << 20, 9);
            assertThat(heardFirstHalf.get(30, TimeUnit.SECONDS)).as("what the client sent first after the host's FIN")
                    .isEqualTo(firstHalf);
            // the host took every byte sent so far: nothing waits to be written, bulk splices within its first batches
            Await.until("the first half counted", Duration.ofSeconds(5),
                    () -> gateway.count("tollgate.tcp.rx_bytes", "listener", "tcp") == 8L << 20);
            splicedBeforeSecondHalf = splicedBytes(gateway);
            long secondHalf = writeRandom(client.getOutputStream(), 8L << 20, 10);
            client.shutdownOutput();
            assertThat(heardSecondHalf.get(30, TimeUnit.SECONDS)).as("what the client sent then, up to its FIN")
                    .isEqualTo(secondHalf);
        }
        assertThat(gateway.count("tollgate.tcp.cx.spliced", "listener", "tcp")).isEqualTo(1);
        Await.until("both directions counted", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.tcp.rx_bytes", "listener", "tcp") == 16L << 20
                        && gateway.count("tollgate.tcp.tx_bytes", "listener", "tcp") == 16L << 20);
        assertThat(splicedBytes(gateway) - splicedBeforeSecondHalf)
                .as("bulk sent after the host's FIN once nothing waited to be written: spliced, but for the read batches"
                        + " before the relay starts (at most " + BEFORE_RELAY + " bytes)")
                .isGreaterThanOrEqualTo((8L << 20) - BEFORE_RELAY);
    }

    @Test
    void aSlowClientThrottlesTheHostInsteadOfFillingMemory() throws Exception {
        long total = 512L << 20;
        AtomicLong written = new AtomicLong();
        RawUpstream upstream = started.add(new RawUpstream(socket -> {
            byte[] block = new byte[CHUNK];
            new Random(3).nextBytes(block);
            OutputStream out = socket.getOutputStream();
            while (written.get() < total) {
                out.write(block);
                written.addAndGet(CHUNK);
            }
        }));
        TestGateway gateway = splicingGateway(upstream.port(), "", "");
        PooledMemory.Sampler memory = PooledMemory.sample();
        try (Socket client = new Socket()) {
            client.setReceiveBufferSize(CHUNK);
            client.connect(new InetSocketAddress("127.0.0.1", gateway.port("tcp")));
            client.setSoTimeout(30_000);
            InputStream in = client.getInputStream();
            byte[] buffer = new byte[CHUNK];
            long read = 0;
            long slowUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
            while (System.nanoTime() < slowUntil) {
                read += Math.max(0, in.read(buffer, 0, 16 * 1024));
                TimeUnit.MILLISECONDS.sleep(2);
            }
            long lag = written.get() - read;
            assertThat(written.get()).as("what the host could write to a slow client").isLessThan(total);
            // kernel socket buffers (autotuned, up to 32 MiB to receive and 4 MiB to send per socket) and one pipe
            assertThat(lag).as("bytes between the host and the slow client").isLessThan(128L << 20);
            int n;
            while ((n = in.read(buffer)) >= 0) {
                read += n;
            }
            assertThat(read).isEqualTo(total);
        } finally {
            memory.close();
        }
        assertThat(memory.growth()).as("allocator memory held while throttled").isLessThan(16L << 20);
        assertThat(gateway.count("tollgate.tcp.cx.spliced", "listener", "tcp")).isEqualTo(1);
        Await.until("the bytes counted", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.tcp.tx_bytes", "listener", "tcp") == total);
    }

    @Test
    void aHostDyingMidStreamEndsTheClientsConnectionAndGivesItsSlotBack() throws Exception {
        RawUpstream upstream = started.add(new RawUpstream(socket -> {
            writeRandom(socket.getOutputStream(), 32L << 20, 1);
            socket.setSoLinger(true, 0);
            // closed by RawUpstream now: with linger 0, a reset in the middle of the stream
        }));
        TestGateway gateway = splicingGateway(upstream.port(), "", "circuit_breakers: { max_connections: 1 }");
        for (int i = 0; i < 2; i++) {
            try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
                client.setSoTimeout(30_000);
                long got = 0;
                try {
                    InputStream in = client.getInputStream();
                    byte[] buffer = new byte[CHUNK];
                    int n;
                    while ((n = in.read(buffer)) >= 0) {
                        got += n;
                    }
                } catch (IOException reset) {
                    assertThat(reset).hasMessageContaining("reset");
                }
                assertThat(got).as("bytes before the end, connection " + i).isPositive().isLessThanOrEqualTo(32L << 20);
            }
            Await.until("the connection gone", Duration.ofSeconds(10), () -> activeConnections(gateway) == 0);
        }
        assertThat(gateway.count("tollgate.tcp.cx.spliced", "listener", "tcp")).isEqualTo(2);
        assertThat(gateway.count("tollgate.tcp.cx.no_upstream")).as("refused for the breaker").isZero();
    }

    @Test
    void aClientResettingMidStreamClosesTheHostsConnection() throws Exception {
        CompletableFuture<Boolean> hostSawTheEnd = new CompletableFuture<>();
        RawUpstream upstream = started.add(new RawUpstream(socket -> {
            try {
                writeRandom(socket.getOutputStream(), GIGABYTE, 1);
                hostSawTheEnd.complete(false);
            } catch (IOException ended) {
                hostSawTheEnd.complete(true);
            }
        }));
        TestGateway gateway = splicingGateway(upstream.port(), "", "");
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            client.setSoTimeout(10_000);
            readCrc(client.getInputStream(), 8L << 20);
            assertThat(gateway.count("tollgate.tcp.cx.spliced", "listener", "tcp")).isEqualTo(1);
            client.setSoLinger(true, 0);
        }
        assertThat(hostSawTheEnd.get(30, TimeUnit.SECONDS)).as("the host's writes failed before its gigabyte").isTrue();
        Await.until("the connection gone", Duration.ofSeconds(10), () -> activeConnections(gateway) == 0);
    }

    @Test
    void aGatewayStoppingWhileSplicingClosesTheConnection() throws Exception {
        RawUpstream echo = started.add(new RawUpstream(TcpProxyTest::echoThenSayEnd));
        TestGateway gateway = splicingGateway(echo.port(), "", "");
        try (Socket client = splicedConnection(gateway)) {
            gateway.close();
            TcpProxyTest.assertClosed(client);
        }
    }

    @Test
    void aGatewayStoppingWhileAPipeHoldsBytesForAClientThatDoesNotReadClosesBothConnections() throws Exception {
        CompletableFuture<Boolean> hostSawTheEnd = new CompletableFuture<>();
        RawUpstream upstream = started.add(new RawUpstream(socket -> {
            try {
                writeRandom(socket.getOutputStream(), GIGABYTE, 1);
                hostSawTheEnd.complete(false);
            } catch (IOException ended) {
                hostSawTheEnd.complete(true);
            }
        }));
        TestGateway gateway = splicingGateway(upstream.port(), "", "");
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            client.setSoTimeout(10_000);
            readCrc(client.getInputStream(), 8L << 20);
            assertThat(gateway.count("tollgate.tcp.cx.spliced", "listener", "tcp")).isEqualTo(1);
            // the client reads no more: the host's bytes fill the sockets and the relay's pipe, which waits for room
            gateway.close();
            assertThat(hostSawTheEnd.get(10, TimeUnit.SECONDS)).as("the host's writes failed before its gigabyte").isTrue();
            // what the kernel still holds for the client, then the end
            try {
                client.getInputStream().transferTo(OutputStream.nullOutputStream());
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the client's connection open 10 s after the gateway stopped", e);
            } catch (IOException reset) {
                assertThat(reset).hasMessageContaining("reset");
            }
        }
    }

    @Test
    void aSplicedConnectionWithoutBytesForTheIdleTimeoutIsClosed() throws Exception {
        RawUpstream echo = started.add(new RawUpstream(TcpProxyTest::echoThenSayEnd));
        TestGateway gateway = splicingGateway(echo.port(), ", idle_timeout: 500ms", "");
        try (Socket client = splicedConnection(gateway)) {
            TcpProxyTest.assertClosed(client);
        }
        assertThat(gateway.count("tollgate.tcp.idle_timeout", "listener", "tcp")).isEqualTo(1);
        Await.until("the connection gone", Duration.ofSeconds(5), () -> activeConnections(gateway) == 0);
    }

    @Test
    void manySplicedConnectionsLeaveNoDescriptorBehind() throws Exception {
        RawUpstream echo = started.add(new RawUpstream(TcpProxyTest::echoThenSayEnd));
        TestGateway gateway = splicingGateway(echo.port(), "", "");
        echoThroughOnce(gateway, 0);
        Await.until("the first connection gone", Duration.ofSeconds(5), () -> activeConnections(gateway) == 0);
        long baseline = openDescriptors();
        int connections = 200;
        // eight clients at a time, so that spliced connections interleave on the one event loop
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 1; i <= connections; i++) {
                int seed = i;
                done.add(clients.submit(() -> {
                    echoThroughOnce(gateway, seed);
                    return null;
                }));
            }
            for (Future<?> each : done) {
                each.get(60, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
        assertThat(gateway.count("tollgate.tcp.cx.spliced", "listener", "tcp")).isEqualTo(connections + 1);
        // what may stay: the event loop's idle pipes, two descriptors each, at most 16 (SplicePipes.KEEP);
        // a leak of one descriptor per connection would be 200
        long kept = 2L * 16;
        Await.until("descriptors back to " + baseline + " (+ " + kept + " for idle pipes)", Duration.ofSeconds(10),
                () -> activeConnections(gateway) == 0 && openDescriptors() <= baseline + kept);
    }

    @Test
    void aShortConversationIsNotSpliced() throws Exception {
        RawUpstream echo = started.add(new RawUpstream(TcpProxyTest::echoThenSayEnd));
        TestGateway gateway = splicingGateway(echo.port(), "", "");
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            for (int i = 0; i < 20; i++) {
                assertThat(TcpProxyTest.exchange(client, "ping " + i)).isEqualTo("ping " + i);
            }
        }
        assertThat(gateway.count("tollgate.tcp.cx.spliced", "listener", "tcp")).isZero();
    }

    @Test
    void theNioTransportNeverSplices() throws Exception {
        RawUpstream echo = started.add(new RawUpstream(TcpProxyTest::echoThenSayEnd));
        TestGateway gateway = splicingGateway(echo.port(), "", "");
        try (CapturingListener nio = CapturingListener.of(gateway.gateway(), "tcp");
                Socket client = new Socket("127.0.0.1", nio.port())) {
            client.setSoTimeout(30_000);
            long sent = writeRandom(client.getOutputStream(), 8L << 20, 6);
            client.shutdownOutput();
            assertThat(readCrc(client.getInputStream(), 8L << 20)).isEqualTo(sent);
        }
        assertThat(gateway.count("tollgate.tcp.rx_bytes", "listener", "tcp")).isEqualTo(8L << 20);
        assertThat(gateway.count("tollgate.tcp.cx.spliced", "listener", "tcp")).isZero();
    }

    @Test
    void aNetworkFilterThatReadsTheBytesKeepsThemOffSplice() throws Exception {
        RawUpstream echo = started.add(new RawUpstream(TcpProxyTest::echoThenSayEnd));
        TestGateway gateway = started.add(TestGateway.start("""
                event_loops: 1
                listeners:
                  - name: tcp
                    network_filters:
                      - { name: test_hold, hold: first_read }
                      - { name: tcp_proxy, cluster: upstream, splice: true }
                clusters:
                  - name: upstream
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                """, Map.of("PORT", echo.port())));
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            client.setSoTimeout(30_000);
            CompletableFuture<Long> sent = CompletableFuture.supplyAsync(() -> {
                try {
                    long crc = writeRandom(client.getOutputStream(), 8L << 20, 7);
                    client.shutdownOutput();
                    return crc;
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            HoldingFilterFactory.HELD.poll(10, TimeUnit.SECONDS).resume();
            assertThat(readCrc(client.getInputStream(), 8L << 20)).isEqualTo(sent.get(30, TimeUnit.SECONDS));
        }
        assertThat(gateway.count("tollgate.tcp.cx.spliced", "listener", "tcp")).isZero();
    }

    /** A TCP proxy with {@code splice: true} behind a {@code client_ip} filter, which needs no byte. */
    private TestGateway splicingGateway(int upstreamPort, String filterSettings, String clusterSettings)
            throws InterruptedException {
        return started.add(TcpProxyTest.tcpGateway("- { name: client_ip, allow: [127.0.0.0/8] }", upstreamPort,
                ", splice: true" + filterSettings, clusterSettings));
    }

    /**
     * The host's side of an answer in two halves of {@code half} bytes (seeds {@code seed} and
     * {@code seed + 1}): the second is sent once the client read the first, when nothing waits to be
     * written anywhere, so that its first bulk read batches start a relay whatever the machine's speed.
     */
    private static void answerInHalves(Socket socket, long half, int seed, CompletableFuture<Void> firstHalfRead)
            throws Exception {
        writeRandom(socket.getOutputStream(), half, seed);
        firstHalfRead.get(30, TimeUnit.SECONDS);
        writeRandom(socket.getOutputStream(), half, seed + 1);
    }

    /** The client's side of {@link #answerInHalves}: reads and checks the first half; returns the spliced bytes then. */
    private static long readFirstHalf(Socket client, TestGateway gateway, long half, int seed,
            CompletableFuture<Void> firstHalfRead) throws Exception {
        assertThat(readCrc(client.getInputStream(), half)).as("the answer's first half").isEqualTo(crcOfRandom(half, seed));
        // counted at the end of each read batch or splice round: wait for the half's last ones
        Await.until("the first half counted", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.tcp.tx_bytes", "listener", "tcp") == half);
        long spliced = splicedBytes(gateway);
        firstHalfRead.complete(null);
        return spliced;
    }

    /** A connection to an echoing host that has had 1 MiB echoed, and so spliced; the caller closes it. */
    private static Socket splicedConnection(TestGateway gateway) throws IOException {
        Socket client = new Socket("127.0.0.1", gateway.port("tcp"));
        client.setSoTimeout(10_000);
        long sent = writeRandom(client.getOutputStream(), 1L << 20, 2);
        assertThat(readCrc(client.getInputStream(), 1L << 20)).isEqualTo(sent);
        assertThat(gateway.count("tollgate.tcp.cx.spliced", "listener", "tcp")).isEqualTo(1);
        return client;
    }

    /** One connection that sends 256 KiB, half-closes, and reads them back with the echo's {@code END}. */
    private static void echoThroughOnce(TestGateway gateway, int seed) throws IOException {
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            client.setSoTimeout(10_000);
            long sent = writeRandom(client.getOutputStream(), 256 * 1024, seed);
            client.shutdownOutput();
            InputStream in = client.getInputStream();
            assertThat(readCrc(in, 256 * 1024)).isEqualTo(sent);
            assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("END");
        }
    }

    private static long splicedBytes(TestGateway gateway) {
        return (long) gateway.count("tollgate.tcp.spliced_bytes", "listener", "tcp", "cluster", "upstream");
    }

    private static double activeConnections(TestGateway gateway) {
        return gateway.gauge("tollgate.tcp.cx.active", "listener", "tcp");
    }

    private static long openDescriptors() {
        try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
            return descriptors.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@code bytes} of seeded random data in 64 KiB blocks; returns their CRC32. */
    private static long writeRandom(OutputStream out, long bytes, int seed) throws IOException {
        Random random = new Random(seed);
        byte[] block = new byte[CHUNK];
        CRC32 crc = new CRC32();
        for (long sent = 0; sent < bytes; sent += block.length) {
            random.nextBytes(block);
            int n = (int) Math.min(block.length, bytes - sent);
            out.write(block, 0, n);
            crc.update(block, 0, n);
        }
        out.flush();
        return crc.getValue();
    }

    private static long crcOfRandom(long bytes, int seed) throws IOException {
        return writeRandom(OutputStream.nullOutputStream(), bytes, seed);
    }

    /** The CRC32 of the next {@code bytes} read (-1: up to the end), failing if the stream ends first. */
    private static long readCrc(InputStream in, long bytes) throws IOException {
        CRC32 crc = new CRC32();
        byte[] buffer = new byte[CHUNK];
        long read = 0;
        while (bytes < 0 || read < bytes) {
            int n = in.read(buffer, 0, (int) (bytes < 0 ? buffer.length : Math.min(buffer.length, bytes - read)));
            if (n < 0) {
                assertThat(bytes).as("the stream ended after " + read + " bytes").isNegative();
                break;
            }
            crc.update(buffer, 0, n);
            read += n;
        }
        return crc.getValue();
    }
}
