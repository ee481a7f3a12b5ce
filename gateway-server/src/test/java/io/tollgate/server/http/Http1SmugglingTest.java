package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * RFC 9112 section 6.3 request-smuggling defences through the running proxy: each ambiguous
 * request is refused with 400 and the connection closed, and nothing of it reaches the upstream.
 * (The codec-level tests in gateway-protocols cover every variant byte by byte.)
 */
class Http1SmugglingTest {

    private static HttpUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstream = new HttpUpstream();
        gateway = TestGateway.proxyingTo(upstream.port(), "15s");
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "content-length and transfer-encoding|Content-Length: 3\\r\\nTransfer-Encoding: chunked",
        "two differing content-lengths|Content-Length: 3\\r\\nContent-Length: 4",
        "malformed content-length|Content-Length: +3",
        "transfer-encoding not chunked last|Transfer-Encoding: chunked, gzip",
        "transfer-encoding gzip only|Transfer-Encoding: gzip",
        "obs-fold|X-Folded: a\\r\\n b",
        "whitespace before colon|Content-Length : 3",
        "invalid character in name|X(Bad): 1",
        "control character in value|X-Bad: a<CTL>b",
        "bare carriage return in value|X-Bad: a<CR>b",
    })
    void refusesAmbiguousFramingAndCloses(String name, String headers) throws Exception {
        int requestsBefore = upstream.clientPorts().size();
        String decoded = headers.replace("\\r\\n", "\r\n").replace("<CTL>", "\u0001").replace("<CR>", "\r");
        String head = "POST /x HTTP/1.1\r\nHost: h\r\n" + decoded + "\r\n\r\n";
        try (RawHttp connection = new RawHttp(gateway.port("http"))) {
            RawHttp.Response response = connection.send(head + "0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: h\r\n\r\n").read();
            assertThat(response.status()).as(name).isEqualTo(400);
            assertThat(connection.closedByServer()).as(name).isTrue();
        }
        assertThat(upstream.clientPorts()).hasSize(requestsBefore);
    }
}
