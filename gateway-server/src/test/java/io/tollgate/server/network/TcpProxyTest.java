package io.tollgate.server.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.PooledMemory;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code tcp} listener and its terminal {@code tcp_proxy} filter over real sockets: bytes both
 * ways with bounded memory, half-close both ways, an unreachable host, the idle timeout, the
 * cluster's {@code max_connections} breaker, load balancing, HTTP carried at L4, the access log.
 */
class TcpProxyTest {

    static final long GIGABYTE = 1L << 30;
    static final int CHUNK = 64 * 1024;

    private final StartedResources started = new StartedResources();

    @AfterEach
    void stop() {
        started.close();
    }

    @Test
    void echoesAGigabyteBothWaysWithBoundedMemoryAndPassesTheClientsFinUpstream() throws Exception {
        RawUpstream echo = started.add(new RawUpstream(TcpProxyTest::echoThenSayEnd));
        TestGateway gateway = tcpGateway(echo.port(), "");
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            assertThat(echoAGigabyteBothWays(gateway, client, 0)).as("allocator memory held while moving 2 GiB")
                    .isLessThan(32L << 20);
        }
        assertThat(gateway.count("tollgate.tcp.cx.total", "listener", "tcp", "cluster", "upstream")).isEqualTo(1);
    }

    @Test
    void anUpstreamsFinReachesTheClientWhichMayStillSendMuchAfterIt() throws Exception {
        CompletableFuture<Long> heardAfterFin = new CompletableFuture<>();
        RawUpstream upstream = started.add(new RawUpstream(socket -> {
            socket.getOutputStream().write("bye".getBytes(StandardCharsets.US_ASCII));
            socket.shutdownOutput();
            // read nothing for a while: the gateway's writes to this half-closed connection must wait
            TimeUnit.MILLISECONDS.sleep(500);
            CRC32 crc = new CRC32();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[CHUNK];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                crc.update(buffer, 0, n);
            }
            heardAfterFin.complete(crc.getValue());
        }));
        TestGateway gateway = tcpGateway(upstream.port(), "");
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            client.setSoTimeout(30_000);
            assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("bye");
            byte[] block = new byte[CHUNK];
            new Random(7).nextBytes(block);
            CRC32 crc = new CRC32();
            OutputStream out = client.getOutputStream();
            for (int i = 0; i < 1024; i++) {
                out.write(block);
                crc.update(block);
            }
            client.shutdownOutput();
            assertThat(heardAfterFin.get(30, TimeUnit.SECONDS)).as("CRC of the 64 MiB sent after the host's FIN")
                    .isEqualTo(crc.getValue());
        }
    }

    @Test
    void aClientThatSendsAndHalfClosesAtOnceGetsItsAnswer() throws Exception {
        RawUpstream echo = started.add(new RawUpstream(TcpProxyTest::echoThenSayEnd));
        TestGateway gateway = tcpGateway(echo.port(), "");
        for (int i = 0; i < 20; i++) {
            try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
                client.setSoTimeout(10_000);
                // the request and its FIN arrive while the gateway still connects upstream
                client.getOutputStream().write(("request " + i).getBytes(StandardCharsets.US_ASCII));
                client.shutdownOutput();
                assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                        .isEqualTo("request " + i + "END");
            }
        }
        assertThat(gateway.count("tollgate.connection.error", "side", "downstream", "kind", "unexpected")).isZero();
    }

    @Test
    void anUnreachableHostClosesTheClientsConnectionAndIsCounted() throws Exception {
        int closedPort;
        try (ServerSocket gone = new ServerSocket(0)) {
            closedPort = gone.getLocalPort();
        }
        TestGateway gateway = tcpGateway(closedPort, "");
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            assertClosed(client);
        }
        Await.until("the connect failure counted", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.tcp.cx.no_upstream", "reason", "connect_failure") == 1);
        assertThat(gateway.count("tollgate.upstream.cx.connect_fail", "cluster", "upstream")).isEqualTo(1);
    }

    @Test
    void aConnectionWithoutBytesForTheIdleTimeoutIsClosed() throws Exception {
        RawUpstream echo = started.add(new RawUpstream(TcpProxyTest::echoThenSayEnd));
        TestGateway gateway = tcpGateway(echo.port(), ", idle_timeout: 300ms");
        try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
            assertThat(exchange(client, "ping")).isEqualTo("ping");
            assertClosed(client);
        }
        assertThat(gateway.count("tollgate.tcp.idle_timeout", "listener", "tcp")).isEqualTo(1);
    }

    @Test
    void theClustersMaxConnectionsBreakerRefusesConnectionsPastIt() throws Exception {
        RawUpstream echo = started.add(new RawUpstream(TcpProxyTest::echoThenSayEnd));
        TestGateway gateway = tcpGateway(echo.port(), "", "circuit_breakers: { max_connections: 1 }");
        try (Socket first = new Socket("127.0.0.1", gateway.port("tcp"))) {
            assertThat(exchange(first, "one")).isEqualTo("one");
            try (Socket second = new Socket("127.0.0.1", gateway.port("tcp"))) {
                assertClosed(second);
            }
            assertThat(exchange(first, "still")).isEqualTo("still");
        }
        assertThat(gateway.count("tollgate.tcp.cx.no_upstream", "reason", "max_connections")).isEqualTo(1);
        assertThat(gateway.count("tollgate.upstream.cx.overflow", "cluster", "upstream")).isEqualTo(1);
        Await.until("the breaker's connection given back", Duration.ofSeconds(5), () -> {
            try (Socket again = new Socket("127.0.0.1", gateway.port("tcp"))) {
                return exchange(again, "again").equals("again");
            } catch (IOException refused) {
                return false;
            }
        });
    }

    @Test
    void connectionsAreBalancedOverTheClustersHosts() throws Exception {
        RawUpstream a = started.add(new RawUpstream(socket -> socket.getOutputStream().write('a')));
        RawUpstream b = started.add(new RawUpstream(socket -> socket.getOutputStream().write('b')));
        TestGateway gateway = twoHostGateway(a.port(), b.port(), "");
        Set<String> served = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
                client.setSoTimeout(10_000);
                served.add(new String(client.getInputStream().readAllBytes(), StandardCharsets.US_ASCII));
            }
        }
        assertThat(served).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void aHostRefusingConnectionsIsEjectedByOutlierDetectionAndTheOthersServe() throws Exception {
        RawUpstream a = started.add(new RawUpstream(socket -> socket.getOutputStream().write('a')));
        int dead = FreePort.pick();
        TestGateway gateway = twoHostGateway(a.port(), dead,
                "outlier_detection: { consecutive_connect_failure: 2, max_ejection_percent: 50, base_ejection_time: 60s }");

        Await.until("the dead host ejected and out of rotation", Duration.ofSeconds(10), () -> {
            try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
                client.setSoTimeout(10_000);
                client.getInputStream().readAllBytes();
            } catch (IOException reset) {
                // the connection to the dead host, closed by the gateway
            }
            return gateway.host("upstream", dead).ejected() && gateway.inRotation("upstream").size() == 1;
        });
        List<String> served = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            try (Socket client = new Socket("127.0.0.1", gateway.port("tcp"))) {
                client.setSoTimeout(10_000);
                served.add(new String(client.getInputStream().readAllBytes(), StandardCharsets.US_ASCII));
            }
        }

        assertThat(served).containsOnly("a").hasSize(10);
        assertThat(gateway.host("upstream", a.port()).ejected()).isFalse();
        assertThat(gateway.count("tollgate.upstream.cx.connect_fail", "cluster", "upstream")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void httpTravelsThroughATcpListenerAndEachConnectionIsLogged(@TempDir Path dir) throws Exception {
        HttpUpstream upstream = started.add(new HttpUpstream("demo"));
        Path log = dir.resolve("access.log");
        TestGateway gateway = started.add(TestGateway.start("""
                listeners:
                  - name: tcp
                    address: 127.0.0.1
                    protocols: [tcp]
                    access_log: { path: ${LOG} }
                    network_filters:
                      - { name: tcp_proxy, cluster: demo }
                clusters:
                  - name: demo
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                """, Map.of("LOG", log, "PORT", upstream.port())));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port("tcp") + "/hello")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("x-upstream")).hasValue("demo");
        try (Socket raw = new Socket("127.0.0.1", gateway.port("tcp"))) {
            raw.setSoTimeout(10_000);
            raw.getOutputStream().write("GET /again HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(new String(raw.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 200");
        }
        Await.until("the connection's access log line", Duration.ofSeconds(10), () -> {
            try {
                return Files.exists(log) && Files.readString(log).contains(" TCP");
            } catch (IOException e) {
                return false;
            }
        });
        assertThat(Files.readString(log)).contains("127.0.0.1:" + upstream.port());
    }

    private TestGateway tcpGateway(int upstreamPort, String filterSettings) throws InterruptedException {
        return tcpGateway(upstreamPort, filterSettings, "");
    }

    private TestGateway tcpGateway(int upstreamPort, String filterSettings, String clusterSettings)
            throws InterruptedException {
        return started.add(tcpGateway("", upstreamPort, filterSettings, clusterSettings));
    }

    /**
     * A gateway on one event loop whose listener {@code tcp} forwards to the one host of cluster
     * {@code upstream}: {@code filtersBefore} are YAML lines of network filters before its
     * {@code tcp_proxy}, {@code filterSettings} (", key: value" pairs) are added to the
     * {@code tcp_proxy}'s and {@code clusterSettings} (a YAML line) to the cluster's.
     */
    static TestGateway tcpGateway(String filtersBefore, int upstreamPort, String filterSettings, String clusterSettings)
            throws InterruptedException {
        return TestGateway.start("""
                event_loops: 1
                listeners:
                  - name: tcp
                    protocols: [tcp]
                    network_filters:
                      ${BEFORE}
                      - { name: tcp_proxy, cluster: upstream${FILTER} }
                clusters:
                  - name: upstream
                    connect_timeout: 2s
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                    ${CLUSTER}
                """, Map.of("BEFORE", filtersBefore, "PORT", upstreamPort, "FILTER", filterSettings,
                "CLUSTER", clusterSettings));
    }

    /**
     * Sends a gigabyte on {@code client}, a connection to the listener {@code tcp} of {@code gateway}
     * that has moved {@code movedBefore} bytes each way already, whose host echoes it then says
     * {@code END}, reading nothing for the first second (both directions must push back); checks the
     * echo and the byte counters, and returns the most allocator memory held meanwhile.
     */
    static long echoAGigabyteBothWays(TestGateway gateway, Socket client, long movedBefore) throws Exception {
        PooledMemory.Sampler memory = PooledMemory.sample();
        try {
            client.setSoTimeout(60_000);
            byte[] block = new byte[CHUNK];
            new Random(13).nextBytes(block);
            CompletableFuture<Long> sentCrc = CompletableFuture.supplyAsync(() -> {
                CRC32 crc = new CRC32();
                try {
                    OutputStream out = client.getOutputStream();
                    for (long sent = 0; sent < GIGABYTE; sent += CHUNK) {
                        out.write(block);
                        crc.update(block);
                    }
                    out.flush();
                    client.shutdownOutput();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                return crc.getValue();
            });
            TimeUnit.SECONDS.sleep(1);
            InputStream in = client.getInputStream();
            CRC32 crc = new CRC32();
            byte[] buffer = new byte[CHUNK];
            long echoed = 0;
            while (echoed < GIGABYTE) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, GIGABYTE - echoed));
                assertThat(n).as("bytes echoed before the end").isPositive();
                crc.update(buffer, 0, n);
                echoed += n;
            }
            assertThat(crc.getValue()).isEqualTo(sentCrc.get(60, TimeUnit.SECONDS));
            assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("END");
        } finally {
            memory.close();
        }
        Await.until("the bytes counted", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.tcp.rx_bytes", "listener", "tcp") == movedBefore + GIGABYTE
                        && gateway.count("tollgate.tcp.tx_bytes", "listener", "tcp") == movedBefore + GIGABYTE + 3);
        return memory.growth();
    }

    /** A TCP listener to a round-robin cluster of the hosts on {@code a} and {@code b}, with {@code clusterSettings}. */
    private TestGateway twoHostGateway(int a, int b, String clusterSettings) throws InterruptedException {
        return started.add(TestGateway.start("""
                listeners:
                  - name: tcp
                    network_filters: [ { name: tcp_proxy, cluster: upstream } ]
                clusters:
                  - name: upstream
                    endpoints: [ { address: 127.0.0.1, port: ${A} }, { address: 127.0.0.1, port: ${B} } ]
                    ${CLUSTER}
                """, Map.of("A", a, "B", b, "CLUSTER", clusterSettings)));
    }

    /** Echoes every byte until the client's FIN, then says {@code END} and closes. */
    static void echoThenSayEnd(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream();
        byte[] buffer = new byte[CHUNK];
        int n;
        while ((n = in.read(buffer)) >= 0) {
            out.write(buffer, 0, n);
        }
        out.write("END".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Sends {@code text} and reads as many bytes back. */
    static String exchange(Socket client, String text) throws IOException {
        client.setSoTimeout(10_000);
        client.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        byte[] back = client.getInputStream().readNBytes(text.length());
        return new String(back, StandardCharsets.US_ASCII);
    }

    /** Fails unless the gateway closes {@code client}'s connection (EOF or reset) within 10 s. */
    static void assertClosed(Socket client) throws IOException {
        client.setSoTimeout(10_000);
        try {
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            int b;
            while ((b = client.getInputStream().read()) >= 0) {
                got.write(b);
            }
            assertThat(got.size()).as("bytes before the close").isZero();
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the connection was not closed within 10 s", e);
        } catch (IOException reset) {
            assertThat(reset).hasMessageContaining("reset");
        }
    }
}
