package io.tollgate.server.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A thousand slow clients (half silent, half trickling a request head a byte at a time) holding
 * connections to the listener do not keep other clients from being served.
 */
class SlowClientsTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: http
                port: 0
                protocols: [http1, h2c]
                # far beyond the test's length however busy the machine: the slow clients must still be held at its end
                protocol_detection_timeout: 10m
                http: { request_headers_timeout: 10m }
                route_config: ${ROUTES}
            """ + EchoGateway.CLUSTERS;
    private static final int SLOW_CLIENTS = 1000;

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
    void thousandSlowClientsDoNotKeepOthersFromBeingServed() throws Exception {
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", gateway.port("http"));
        List<SocketChannel> slow = new ArrayList<>();
        AtomicBoolean trickling = new AtomicBoolean(true);
        Thread trickler = null;
        try {
            for (int i = 0; i < SLOW_CLIENTS; i++) {
                slow.add(SocketChannel.open(address));
            }
            List<SocketChannel> tricklers = slow.subList(0, SLOW_CLIENTS / 2);
            byte[] head = "GET /slow HTTP/1.1\r\nHost: a\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
            trickler = new Thread(() -> trickle(tricklers, head, trickling), "trickler");
            trickler.start();

            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            for (int i = 0; i < 200; i++) {
                HttpResponse<String> response = client.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + "/fast" + i)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).isEqualTo(200);
            }
            assertThat(slow.stream().filter(SlowClientsTest::openAtTheGateway).count())
                    .as("slow clients whose connections the gateway still holds, nothing sent back").isEqualTo(SLOW_CLIENTS);
        } finally {
            trickling.set(false);
            if (trickler != null) {
                trickler.join();
            }
            for (SocketChannel channel : slow) {
                channel.close();
            }
        }
    }

    /**
     * Whether the gateway has neither closed {@code channel} nor written to it: a read that does
     * not wait finds no byte (a close would read the end or fail, an answer such as 408 a byte).
     */
    private static boolean openAtTheGateway(SocketChannel channel) {
        try {
            channel.configureBlocking(false);
            return channel.read(ByteBuffer.allocate(1)) == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Writes the next byte of {@code head}, then of an endless header value, to every channel, every 100 ms. */
    private static void trickle(List<SocketChannel> channels, byte[] head, AtomicBoolean trickling) {
        int position = 0;
        while (trickling.get()) {
            byte next = position < head.length ? head[position] : (byte) 'x';
            for (SocketChannel channel : channels) {
                try {
                    channel.write(ByteBuffer.wrap(new byte[] {next}));
                } catch (IOException closedByGateway) {
                    // counted by the gateway; the others keep trickling
                }
            }
            position++;
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
