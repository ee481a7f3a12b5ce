package io.tollgate.server.upstream.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.BackloggedPort;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP/1.1 pool over real sockets, against an upstream whose accept queue the test fills so
 * that a second connect hangs: a request that found no idle connection is served by whichever
 * connection becomes ready first, here the first one, released by its finished request, and not
 * held back by the connect started for it.
 */
class Http1ConnectionPoolTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final String CONFIG = GatewayYaml.http("""
            - { match: { prefix: / }, route: { cluster: slow_accept, timeout: 10s } }
            """, """
            clusters:
              - name: slow_accept
                connect_timeout: ${CONNECT_TIMEOUT}
                endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
            """);

    private BackloggedPort upstream;
    private TestGateway gateway;

    @AfterEach
    void stop() throws IOException {
        if (gateway != null) {
            gateway.close();
        }
        upstream.close();
    }

    @Test
    void aReleasedConnectionServesAWaitingRequestBeforeItsConnectCompletes() throws Exception {
        start("10s");
        try (RawHttp first = new RawHttp(gateway.port("http")); RawHttp second = new RawHttp(gateway.port("http"));
                Socket connection = holdFirstThenSendSecond(first, second)) {
            Await.until("a second connect started for the second request", LIMIT,
                    () -> connectionsOpenOrConnecting() == 2);

            assertBothServedInTurnOn(connection, first, second);
            assertThat(gateway.count("tollgate.upstream.cx.connect_fail", "cluster", "slow_accept"))
                    .as("the hanging connect is still in flight").isZero();
        }
    }

    @Test
    void aRequestWhoseConnectFailedWaitsForTheBusyConnectionInsteadOfFailing() throws Exception {
        start("200ms");
        try (RawHttp first = new RawHttp(gateway.port("http")); RawHttp second = new RawHttp(gateway.port("http"));
                Socket connection = holdFirstThenSendSecond(first, second)) {
            Await.until("the second request's connect timed out", LIMIT,
                    () -> gateway.count("tollgate.upstream.cx.connect_fail", "cluster", "slow_accept") == 1);

            assertBothServedInTurnOn(connection, first, second);
        }
    }

    /**
     * Sends the first request and holds it on the upstream connection it arrived on, fills the
     * upstream's accept queue so that the next connect hangs, then sends the second request.
     */
    private Socket holdFirstThenSendSecond(RawHttp first, RawHttp second) throws IOException {
        first.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n");
        Socket connection = upstream.server().accept();
        connection.setSoTimeout((int) LIMIT.toMillis());
        assertThat(readHead(connection.getInputStream())).startsWith("GET /first ");
        upstream.fill();
        second.send("GET /second HTTP/1.1\r\nHost: x\r\n\r\n");
        return connection;
    }

    /** Answers the first request; the second MUST then arrive on the same connection. */
    private static void assertBothServedInTurnOn(Socket connection, RawHttp first, RawHttp second) throws IOException {
        answer(connection, "first");
        assertThat(first.read().body()).isEqualTo("first");
        assertThat(readHead(connection.getInputStream())).startsWith("GET /second ");
        answer(connection, "second");
        RawHttp.Response response = second.read();

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("second");
    }

    private void start(String connectTimeout) throws IOException, InterruptedException {
        upstream = new BackloggedPort();
        gateway = TestGateway.start(CONFIG, Map.of("CONNECT_TIMEOUT", connectTimeout, "PORT", upstream.port()));
    }

    private int connectionsOpenOrConnecting() {
        return gateway.gateway().snapshot().clusters().cluster("slow_accept").circuitBreakers().connections();
    }

    private static void answer(Socket connection, String body) throws IOException {
        OutputStream out = connection.getOutputStream();
        out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Reads one request head (a GET has no body), up to its blank line. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the gateway closed the connection after " + head);
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }
}
