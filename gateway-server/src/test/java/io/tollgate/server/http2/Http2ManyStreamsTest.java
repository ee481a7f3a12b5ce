package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Many concurrent streams on one downstream connection, each proxied to an HTTP/1.1 upstream:
 * every stream gets its own complete response, none mixed up with another's, none lost.
 */
class Http2ManyStreamsTest {

    private static final int STREAMS = 100;
    private static final int BODY = 20_000;
    private static HttpUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstream = new HttpUpstream().handle("/item/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            byte fill = (byte) Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
            byte[] body = new byte[BODY];
            Arrays.fill(body, fill);
            HttpUpstream.respond(exchange, 200, body);
        });
        gateway = TestGateway.h2cProxyingTo(upstream.port(), "15s");
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void everyOneOfAHundredConcurrentStreamsGetsItsOwnWholeResponse() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface();
            for (int i = 0; i < STREAMS; i++) {
                int stream = 2 * i + 1;
                client.get(stream, "/item/" + i);
                if (i == 0) {
                    client.openWindows(stream);
                }
            }
            Map<Integer, Integer> received = new HashMap<>();
            Map<Integer, Boolean> ended = new HashMap<>();
            while (ended.size() < STREAMS) {
                RawH2.Frame frame = client.read();
                assertThat(frame).as("a frame before the connection closed").isNotNull();
                assertThat(frame.type()).as("frame type").isNotIn(RawH2.GOAWAY, RawH2.RST_STREAM);
                if (frame.type() == RawH2.HEADERS) {
                    assertThat(String.valueOf(client.headers(frame).status())).isEqualTo("200");
                }
                if (frame.type() == RawH2.DATA) {
                    int stream = frame.stream();
                    byte expected = (byte) ((stream - 1) / 2);
                    for (byte b : frame.payload()) {
                        assertThat(b).isEqualTo(expected);
                    }
                    received.merge(stream, frame.payload().length, Integer::sum);
                }
                if (frame.endsStream()) {
                    ended.put(frame.stream(), true);
                }
            }
            assertThat(received).hasSize(STREAMS).allSatisfy((stream, bytes) -> assertThat(bytes).isEqualTo(BODY));
        }
    }
}
