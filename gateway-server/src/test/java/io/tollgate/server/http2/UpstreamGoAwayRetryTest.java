package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An h2 upstream that answers each new stream with a GOAWAY whose last stream id is below it
 * (the stream was never processed): on a route with a {@code reset} retry policy the gateway
 * sends the request again, to the other host, and the client gets that host's answer.
 */
class UpstreamGoAwayRetryTest {

    private static final AtomicInteger refused = new AtomicInteger();
    private static RawUpstream goingAway;
    private static H2Upstream echo;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        goingAway = new RawUpstream(UpstreamGoAwayRetryTest::refuseEveryStream);
        echo = new H2Upstream();
        gateway = TestGateway.start("""
                event_loops: 1
                listeners:
                  - name: http
                    port: 0
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - match: { prefix: / }
                              route: { cluster: h2, timeout: 10s, retry_policy: { retry_on: [reset], num_retries: 1 } }
                clusters:
                  - name: h2
                    protocol: h2
                    lb_policy: round_robin
                    endpoints: [ { address: 127.0.0.1, port: ${AWAY} }, { address: 127.0.0.1, port: ${ECHO} } ]
                """, Map.of("AWAY", goingAway.port(), "ECHO", echo.port()));
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        echo.close();
        goingAway.close();
    }

    @Test
    void streamAboveTheLastStreamIdOfAGoAwayIsRetriedOnAnotherHost() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port("http") + "/r" + i)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as("request %d", i).isEqualTo(200);
            assertThat(response.body()).contains("path: /r" + i);
        }

        assertThat(refused.get()).isPositive();
        assertThat(gateway.count("tollgate.upstream.rq.retry", "cluster", "h2")).isEqualTo(refused.get());
    }

    /** Speaks just enough HTTP/2 to refuse every stream with GOAWAY(last stream id below it). */
    private static void refuseEveryStream(Socket socket) throws Exception {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        OutputStream out = socket.getOutputStream();
        in.readFully(new byte[24]);
        out.write(RawH2.frameBytes(RawH2.SETTINGS, 0, 0, new byte[0]));
        while (true) {
            int length = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int stream = in.readInt() & 0x7fffffff;
            in.readFully(new byte[length]);
            if (type == RawH2.SETTINGS && (flags & 0x1) == 0) {
                out.write(RawH2.frameBytes(RawH2.SETTINGS, 0x1, 0, new byte[0]));
            } else if (type == RawH2.HEADERS) {
                refused.incrementAndGet();
                byte[] goAway = ByteBuffer.allocate(8).putInt(Math.max(0, stream - 2)).putInt(0).array();
                out.write(RawH2.frameBytes(RawH2.GOAWAY, 0, 0, goAway));
            }
            out.flush();
        }
    }
}
