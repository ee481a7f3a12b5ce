package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.TestGateway;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
        gateway = TestGateway.start(GatewayYaml.http("""
                - match: { prefix: / }
                  route: { cluster: h2, timeout: 10s, retry_policy: { retry_on: [reset], num_retries: 1 } }
                """, """
                clusters:
                  - name: h2
                    protocol: h2
                    lb_policy: round_robin
                    endpoints: [ { address: 127.0.0.1, port: ${AWAY} }, { address: 127.0.0.1, port: ${ECHO} } ]
                """), Map.of("AWAY", goingAway.port(), "ECHO", echo.port()));
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
        assertThat(gateway.count("tollgate.upstream.rq.redispatch", "cluster", "h2"))
                .as("refused unprocessed, so moved without a retry").isEqualTo(refused.get());
        assertThat(gateway.count("tollgate.upstream.rq.retry", "cluster", "h2")).isZero();
    }

    /** Speaks just enough HTTP/2 to refuse every stream with GOAWAY(last stream id below it). */
    private static void refuseEveryStream(Socket socket) throws Exception {
        H2Peer peer = new H2Peer(socket);
        RawH2.Frame frame;
        while ((frame = peer.read()) != null) {
            if (frame.type() == RawH2.HEADERS) {
                refused.incrementAndGet();
                peer.goAway(Math.max(0, frame.stream() - 2));
            }
        }
    }
}
