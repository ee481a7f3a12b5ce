package io.tollgate.server.listener;

import static io.tollgate.server.listener.ConnectionTimeoutsTest.assertClosedWithin;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.UnixOperatingSystemMXBean;
import io.netty.buffer.ByteBuf;
import io.tollgate.server.rpc.BoltFrames;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The overload guard, driven by the descriptors of this very process: with its threshold a few
 * hundred descriptors above what is open, holding that many sockets makes the gateway overloaded,
 * so that new connections are closed and new requests on open ones are shed (HTTP 503
 * {@code overload}, Bolt server busy); closing the sockets ends it.
 */
class OverloadTest {

    private static final String CONFIG = """
            event_loops: 1
            overload: { fd_threshold: ${THRESHOLD}, check_interval: 50ms }
            listeners:
              - name: http
                port: 0
                route_config: ${ROUTES}
              - name: bolt
                port: 0
                protocols: [bolt]
                route_config: ${ROUTES}
            """ + EchoGateway.CLUSTERS;
    private static final int HEADROOM = 200;

    private final List<Socket> held = new ArrayList<>();
    private EchoGateway started;
    private TestGateway gateway;
    private ServerSocket sink;

    @BeforeEach
    void start() throws Exception {
        UnixOperatingSystemMXBean os = (UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        sink = new ServerSocket(0);
        double threshold = (double) (os.getOpenFileDescriptorCount() + HEADROOM) / os.getMaxFileDescriptorCount();
        started = EchoGateway.start(CONFIG, "THRESHOLD", String.format("%.6f", threshold));
        gateway = started.gateway();
    }

    @AfterEach
    void stop() throws IOException {
        releaseDescriptors();
        started.close();
        sink.close();
    }

    @Test
    void overloadedGatewayRefusesConnectionsAndShedsRequestsUntilItRecovers() throws Exception {
        try (RawHttp open = new RawHttp(gateway.port("http"));
                Socket bolt = new Socket("127.0.0.1", gateway.port("bolt"))) {
            assertThat(open.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n").read(false).status()).isEqualTo(200);

            holdDescriptors(HEADROOM);
            Await.until("overloaded", Duration.ofSeconds(5), () -> gauge() == 1);

            RawHttp.Response shed = open.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n").read(false);
            assertThat(shed.status()).isEqualTo(503);
            assertThat(shed.header("x-tollgate-error")).isEqualTo("overload");
            assertThat(boltStatus(bolt)).as("Bolt SERVER_THREADPOOL_BUSY").isEqualTo(4);
            try (Socket refused = new Socket("127.0.0.1", gateway.port("http"))) {
                assertClosedWithin(refused, Duration.ofSeconds(5));
            }
            assertThat(gateway.count("tollgate.downstream.cx.rejected", "reason", "overload")).isGreaterThanOrEqualTo(1);
            assertThat(gateway.count("tollgate.downstream.rq.error", "reason", "overload")).isEqualTo(2);

            releaseDescriptors();
            Await.until("recovered", Duration.ofSeconds(5), () -> gauge() == 0);
        }
        try (RawHttp fresh = new RawHttp(gateway.port("http"))) {
            assertThat(fresh.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n").read(false).status()).isEqualTo(200);
        }
    }

    /** Sends a Bolt request on {@code socket} and returns the status of its answer. */
    private static int boltStatus(Socket socket) throws IOException {
        ByteBuf request = BoltFrames.request(7, false, 5000, Map.of("service", "svc", "sofa_head_method_name", "m"), "x");
        try {
            byte[] bytes = new byte[request.readableBytes()];
            request.readBytes(bytes);
            socket.getOutputStream().write(bytes);
        } finally {
            request.release();
        }
        socket.setSoTimeout(5000);
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] head = new byte[20];
        in.readFully(head);
        return ((head[10] & 0xff) << 8) | (head[11] & 0xff);
    }

    /** Opens {@code pairs} loopback connections to the sink: two descriptors each, in this process. */
    private void holdDescriptors(int pairs) throws IOException {
        for (int i = 0; i < pairs; i++) {
            held.add(new Socket("127.0.0.1", sink.getLocalPort()));
            held.add(sink.accept());
        }
    }

    private void releaseDescriptors() throws IOException {
        for (Socket socket : held) {
            socket.close();
        }
        held.clear();
    }

    private double gauge() {
        return gateway.gateway().metrics().registry().get("tollgate.overload.active").gauge().value();
    }
}
