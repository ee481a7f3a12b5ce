package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http2.Http2Error;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HTTP/2 clients to HTTP/1.1 upstreams and HTTP/1.1 clients to HTTP/2 upstreams: the JDK client
 * upgrades to h2c on the HTTP/1 port, headers are translated (Host and {@code :authority},
 * connection headers and Netty's conversion headers dropped, cookies), bodies and trailers cross
 * both ways.
 */
class Http2TranslationTest {

    private static HttpUpstream http1;
    private static H2Upstream h2;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        http1 = new HttpUpstream("h1");
        h2 = new H2Upstream();
        gateway = TestGateway.start("""
                event_loops: 1
                listeners:
                  - name: web
                    port: 0
                    protocols: [http1, h2c]
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - { match: { prefix: /to-h2/ }, route: { cluster: h2, timeout: 10s } }
                            - { match: { prefix: / }, route: { cluster: h1, timeout: 10s } }
                clusters:
                  - name: h1
                    endpoints: [ { address: 127.0.0.1, port: ${H1} } ]
                  - name: h2
                    protocol: h2
                    endpoints: [ { address: 127.0.0.1, port: ${H2} } ]
                """, Map.of("H1", http1.port(), "H2", h2.port()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        http1.close();
        h2.close();
    }

    @Test
    void expectContinueOverH2GetsAnInterimResponseThenTheFinalOne() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("web"))) {
            client.preface().frame(RawH2.HEADERS, RawH2.END_HEADERS, 1,
                    client.headerBlock(RawH2.request("POST", "/echo").add("expect", "100-continue")));
            RawH2.Frame interim = client.await(f -> f.type() == RawH2.HEADERS && f.stream() == 1);
            assertThat(interim).isNotNull();
            assertThat(client.headers(interim).status().toString()).isEqualTo("100");
            assertThat(interim.endsStream()).isFalse();

            client.frame(RawH2.DATA, RawH2.END_STREAM, 1, "hello".getBytes(StandardCharsets.US_ASCII));
            RawH2.Frame last = client.await(f -> f.type() == RawH2.HEADERS && f.stream() == 1);
            assertThat(last).isNotNull();
            assertThat(client.headers(last).status().toString()).isEqualTo("200");
            RawH2.Frame body = client.await(f -> f.type() == RawH2.DATA && f.stream() == 1);
            assertThat(new String(body.payload(), StandardCharsets.UTF_8)).contains("body-bytes: 5");
        }
    }

    @Test
    void jdkClientUpgradesToH2cAndReachesAnHttp1Upstream() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(5)).build();
        URI uri = gateway.uri("web", "/echo?q=1");
        HttpResponse<String> first = client.send(HttpRequest.newBuilder(uri).header("Cookie", "a=1; b=2").build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> second = client.send(HttpRequest.newBuilder(uri)
                        .POST(HttpRequest.BodyPublishers.ofString("hello h2")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(second.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(first.body())
                .contains("target: /echo?q=1", "h-host: 127.0.0.1:" + gateway.port("web"), "h-cookie: a=1; b=2")
                .doesNotContain("x-http2", "h-upgrade", "h-http2-settings", "h-connection");
        assertThat(second.body()).contains("method: POST", "body-bytes: 8").doesNotContain("x-http2");
        assertThat(gateway.count("tollgate.downstream.cx.total", "listener", "web")).isEqualTo(1.0);
    }

    @Test
    void jdkClientsFirstRequestWithABodyOverTheUpgradeCapIsServedOverHttp1() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(gateway.uri("web", "/echo"))
                        .POST(HttpRequest.BodyPublishers.ofString("x".repeat(200_000))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(response.body()).contains("body-bytes: 200000").doesNotContain("h-upgrade");
    }

    @Test
    void http1ChunkedRequestWithTrailersReachesAnH2UpstreamAndItsTrailersComeBack() throws Exception {
        try (RawHttp client = new RawHttp(gateway.port("web"))) {
            client.send("POST /to-h2/x?y=z HTTP/1.1\r\nHost: example.test:81\r\nTE: trailers\r\nCookie: a=1; b=2\r\n"
                    + "Transfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n"
                    + "5\r\nhello\r\n6\r\n world\r\n0\r\nx-client-trailer: sent\r\n\r\n");
            RawHttp.Response response = client.read();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body()).contains("method: POST", "path: /to-h2/x?y=z", "h-host: example.test:81",
                    "h-te: trailers", "h-cookie: a=1; b=2", "t-x-client-trailer: sent", "body-bytes: 11")
                    .doesNotContain("h-connection", "h-transfer-encoding");
            assertThat(response.trailers()).containsEntry("x-upstream-trailer", "done");
            assertThat(response.headers()).doesNotContainKey("x-http2-stream-id");
        }
    }

    @Test
    void upgradingRequestIsProxiedToAnH2UpstreamAsStreamOne() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(gateway.uri("web", "/to-h2/first")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.body()).contains("method: GET", "path: /to-h2/first");
    }

    @Test
    void upgradingRequestWithABodyIsProxiedAndTheConnectionServesMoreStreams() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("web"))) {
            String head = client.upgrade("POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: 5\r\n"
                    + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABk\r\n\r\nhello");
            assertThat(head).startsWith("HTTP/1.1 101");

            client.preface();
            RawH2.Frame upgradedHead = client.await(f -> f.type() == RawH2.HEADERS && f.stream() == 1);
            assertThat(upgradedHead).isNotNull();
            assertThat(client.headers(upgradedHead).status().toString()).isEqualTo("200");
            RawH2.Frame upgraded = client.await(f -> f.type() == RawH2.DATA && f.stream() == 1);
            assertThat(upgraded).isNotNull();
            assertThat(new String(upgraded.payload(), StandardCharsets.UTF_8)).contains("method: POST", "body-bytes: 5");

            client.get(3, "/echo");
            RawH2.Frame next = client.await(f -> f.type() == RawH2.HEADERS && f.stream() == 3);
            assertThat(next).isNotNull();
            assertThat(client.headers(next).status().toString()).isEqualTo("200");
        }
    }

    @Test
    void hostHeaderRepeatingTheAuthorityIsForwardedOnce() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("web"))) {
            client.preface().frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1,
                    client.headerBlock(RawH2.request("GET", "/echo").add("host", "test")));
            RawH2.Frame head = client.await(f -> f.type() == RawH2.HEADERS && f.stream() == 1);
            assertThat(client.headers(head).status().toString()).isEqualTo("200");
            RawH2.Frame body = client.await(f -> f.type() == RawH2.DATA && f.stream() == 1);
            assertThat(new String(body.payload(), StandardCharsets.UTF_8)).contains("\nh-host: test\n");
        }
    }

    @Test
    void hostHeaderContradictingTheAuthorityResetsTheStream() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("web"))) {
            client.preface().frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1,
                    client.headerBlock(RawH2.request("GET", "/echo").add("host", "other")));
            RawH2.Frame answer = client.await(f -> f.stream() == 1);
            assertThat(answer.type()).isEqualTo(RawH2.RST_STREAM);
            assertThat(answer.errorCode()).isEqualTo((int) Http2Error.PROTOCOL_ERROR.code());
        }
    }
}
