package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.tollgate.server.testing.RawHttp;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A request that ends with trailers (HEADERS, DATA, HEADERS with END_STREAM; RFC 9113 section
 * 8.1), sent by Netty's HTTP/2 client codec over h2c (prior knowledge, on a port shared with
 * HTTP/1.1) and over TLS (ALPN h2), reaches an HTTP/2 upstream with its trailers as trailers and
 * an HTTP/1.1 upstream with them as the trailer section of a chunked body, and the connection
 * serves its other streams on. Every frame of a request goes in one flush, so the gateway reads a
 * stream's opening HEADERS and its trailers in one batch: the case that ended the connection
 * with GOAWAY STREAM_CLOSED.
 */
class Http2RequestTrailersTest {

    private static TrailersGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        gateway = new TrailersGateway();
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
    }

    private static NettyH2Client client(String listener) throws Exception {
        return listener.equals("h2") ? NettyH2Client.h2(gateway.port(listener)) : NettyH2Client.h2c(gateway.port(listener));
    }

    private static Http2Headers trailer(String name, String value) {
        return new DefaultHttp2Headers().add(name, value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2c", "h2"})
    void trailersAfterDataReachAnHttp2UpstreamAsTrailers(String listener) throws Exception {
        try (NettyH2Client client = client(listener)) {
            NettyH2Client.Response response = client.exchange(client.head("POST", "/h2/trailers"),
                    List.of("hello ", "world"), trailer("x-t", "1"));

            assertThat(response.status()).isEqualTo("200");
            assertThat(response.body()).contains("t-x-t: 1\n").contains("body-bytes: 11\n");
            assertThat(response.trailers()).isNotNull();
            assertThat(response.trailers().get("x-upstream-trailer")).hasToString("done");
            assertThat(client.goAway()).isNotDone();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2c", "h2"})
    void trailersAfterDataReachAnHttp1UpstreamAsTheTrailerSectionOfAChunkedBody(String listener) throws Exception {
        try (NettyH2Client client = client(listener)) {
            NettyH2Client.Response response = client.exchange(client.head("POST", "/h1/trailers"),
                    List.of("hello"), trailer("x-t", "1"));

            assertThat(response.status()).isEqualTo("200");
            String wire = response.body().toLowerCase();
            assertThat(wire).contains("\r\ntransfer-encoding: chunked\r\n").doesNotContain("content-length");
            assertThat(wire).endsWith("\r\n5\r\nhello\r\n0\r\nx-t: 1\r\n\r\n");
        }
    }

    /**
     * A client that knows its body's length and announces its trailers ({@code trailer}, RFC 9110
     * section 6.6.2), as nghttp does: an HTTP/1.1 message framed by its length has nowhere to put
     * trailers, so the upstream gets the body chunked, and the trailers with it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"h2c", "h2"})
    void announcedTrailersOfABodyOfKnownLengthReachAnHttp1UpstreamChunked(String listener) throws Exception {
        try (NettyH2Client client = client(listener)) {
            NettyH2Client.Response response = client.exchange(client.head("POST", "/h1/announced")
                    .add("content-length", "5").add("trailer", "x-t"), List.of("hello"), trailer("x-t", "1"));

            assertThat(response.status()).isEqualTo("200");
            String wire = response.body().toLowerCase();
            assertThat(wire).contains("\r\ntransfer-encoding: chunked\r\n").contains("\r\ntrailer: x-t\r\n")
                    .doesNotContain("content-length");
            assertThat(wire).endsWith("\r\n5\r\nhello\r\n0\r\nx-t: 1\r\n\r\n");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2c", "h2"})
    void trailersWithoutDataReachTheUpstream(String listener) throws Exception {
        try (NettyH2Client client = client(listener)) {
            NettyH2Client.Response toH2 = client.exchange(client.head("POST", "/h2/empty"), List.of(),
                    trailer("x-t", "2"));
            NettyH2Client.Response toH1 = client.exchange(client.head("POST", "/h1/empty"), List.of(),
                    trailer("x-t", "2"));

            assertThat(toH2.status()).isEqualTo("200");
            assertThat(toH2.body()).contains("t-x-t: 2\n").contains("body-bytes: 0\n");
            assertThat(toH1.status()).isEqualTo("200");
            assertThat(toH1.body().toLowerCase()).endsWith("\r\n0\r\nx-t: 2\r\n\r\n");
        }
    }

    /**
     * {@code te: trailers} is what gRPC sends; it reaches an HTTP/2 upstream (which may insist on
     * it) and not an HTTP/1.1 one, to which TE is a field of the gateway's own hop.
     */
    @Test
    void teTrailersReachesAnHttp2UpstreamButNotAnHttp1One() throws Exception {
        try (NettyH2Client client = client("h2c")) {
            NettyH2Client.Response toH2 = client.exchange(client.head("POST", "/h2/te").add("te", "trailers"),
                    List.of("x"), trailer("x-t", "3"));
            NettyH2Client.Response toH1 = client.exchange(client.head("POST", "/h1/te").add("te", "trailers"),
                    List.of("x"), trailer("x-t", "3"));

            assertThat(toH2.body()).contains("h-te: trailers\n").contains("t-x-t: 3\n");
            String wire = toH1.body().toLowerCase();
            assertThat(wire).doesNotContain("\r\nte:").doesNotContain("\r\nconnection:");
            assertThat(wire).endsWith("\r\n0\r\nx-t: 3\r\n\r\n");
        }
    }

    /** Streams that begin and end in the same read as one with trailers are served alike. */
    @ParameterizedTest
    @ValueSource(strings = {"h2c", "h2"})
    void theConnectionServesItsOtherStreamsBesideOneWithTrailers(String listener) throws Exception {
        try (NettyH2Client client = client(listener)) {
            CompletableFuture<NettyH2Client.Response> before = client.start(client.head("GET", "/h2/before"),
                    List.of(), null);
            CompletableFuture<NettyH2Client.Response> withTrailers = client.start(client.head("POST", "/h1/t"),
                    List.of("body"), trailer("x-t", "4"));
            CompletableFuture<NettyH2Client.Response> after = client.start(client.head("POST", "/h2/after"),
                    List.of("body"), null);
            client.flush();

            assertThat(before.get(10, TimeUnit.SECONDS).status()).isEqualTo("200");
            assertThat(withTrailers.get(10, TimeUnit.SECONDS).body()).endsWith("0\r\nx-t: 4\r\n\r\n");
            assertThat(after.get(10, TimeUnit.SECONDS).status()).isEqualTo("200");
            NettyH2Client.Response later = client.exchange(client.head("POST", "/h2/later"), List.of("z"),
                    trailer("x-t", "5"));
            assertThat(later.body()).contains("t-x-t: 5\n");
            assertThat(client.goAway()).isNotDone();
            assertThat(client.isOpen()).isTrue();
        }
    }

    /** The HTTP/1.1 path to an HTTP/2 upstream: a chunked request's trailer section arrives as trailers. */
    @Test
    void http1ChunkedTrailersReachAnHttp2UpstreamAsTrailers() throws Exception {
        try (RawHttp client = new RawHttp(gateway.port("h2c"))) {
            client.send("POST /h2/chunked HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n0\r\nx-t: 6\r\n\r\n");
            RawHttp.Response response = client.read();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body()).contains("t-x-t: 6\n").contains("body-bytes: 5\n");
        }
    }
}
