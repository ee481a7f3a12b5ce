package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Connection behaviour on both sides: keep-alive, pipelining, HTTP/1.0, 100-continue, bodies. */
class Http1ConnectionTest {

    private static HttpUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstream = new HttpUpstream().handle("/delay/", exchange -> {
            long millis = Long.parseLong(exchange.getRequestURI().getPath().substring("/delay/".length()));
            try {
                TimeUnit.MILLISECONDS.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            HttpUpstream.respond(exchange, 200, ("delayed " + millis).getBytes(StandardCharsets.UTF_8));
        });
        gateway = TestGateway.proxyingTo(upstream.port(), "15s");
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void reusesUpstreamConnectionsAcrossRequests() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        int before = upstream.clientPorts().size();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(gateway.uri("http", "/delay/0")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
        }
        assertThat(upstream.clientPorts().size() - before).isLessThanOrEqualTo(1);
    }

    @Test
    void keepsTheDownstreamConnectionAlive() throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            for (int i = 0; i < 3; i++) {
                RawHttp.Response response = connection.send("GET /n" + i + " HTTP/1.1\r\nHost: x\r\n\r\n").read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.body()).contains("target: /n" + i);
            }
        }
    }

    @Test
    void answersPipelinedRequestsInOrder() throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            connection.send("GET /delay/300 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /delay/0 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
                    + "HEAD /delay/0 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /last HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(connection.read().body()).isEqualTo("delayed 300");
            assertThat(connection.read().body()).isEqualTo("delayed 0");
            assertThat(connection.read().body()).contains("method: POST", "body-bytes: 5");
            RawHttp.Response head = connection.read(true);
            assertThat(head.status()).isEqualTo(200);
            assertThat(connection.read().body()).contains("target: /last");
        }
    }

    @Test
    void http10KeepAliveIsAnsweredWithKeepAlive() throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            for (int i = 0; i < 2; i++) {
                RawHttp.Response response = connection.send("GET /ten HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.header("connection")).isEqualToIgnoringCase("keep-alive");
                assertThat(response.header("content-length")).isNotNull();
            }
        }
    }

    @Test
    void http10WithoutKeepAliveIsClosedAfterTheResponse() throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            RawHttp.Response response = connection.send("GET /ten HTTP/1.0\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(connection.closedByServer()).isTrue();
        }
    }

    @Test
    void connectionCloseIsHonoured() throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            RawHttp.Response response = connection.send("GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").read();
            assertThat(response.header("connection")).isEqualTo("close");
            assertThat(connection.closedByServer()).isTrue();
        }
    }

    @Test
    void expectContinueGets100BeforeTheBodyIsSent() throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n");
            RawHttp.Response interim = connection.read();
            assertThat(interim.status()).isEqualTo(100);
            RawHttp.Response response = connection.send("abc").read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body()).contains("body-bytes: 3").doesNotContain("h-expect");
        }
    }

    @Test
    void unknownExpectationIs417() throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            RawHttp.Response response = connection
                    .send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: teapot\r\n\r\nabc").read();
            assertThat(response.status()).isEqualTo(417);
        }
    }

    @Test
    void forwardsChunkedAndFixedLengthBodies() throws Exception {
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            RawHttp.Response chunked = connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n").read();
            assertThat(chunked.body()).contains("body-bytes: 11");
            RawHttp.Response fixed = connection.send("PUT /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nabcd").read();
            assertThat(fixed.body()).contains("method: PUT", "body-bytes: 4");
        }
    }
}
