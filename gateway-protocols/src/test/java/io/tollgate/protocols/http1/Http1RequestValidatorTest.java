package io.tollgate.protocols.http1;

import static io.tollgate.protocols.http1.DownstreamHarness.feed;
import static io.tollgate.protocols.http1.DownstreamHarness.feedSplit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.tollgate.protocols.http1.DownstreamHarness.Outcome;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class Http1RequestValidatorTest {

    private static final String GET = "GET / HTTP/1.1\r\nHost: a\r\n";

    static Stream<Arguments> refusedRequests() {
        return Stream.of(
                refused("both Content-Length and Transfer-Encoding",
                        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                refused("Transfer-Encoding before Content-Length",
                        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"),
                refused("two different Content-Length lines",
                        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"),
                refused("two equal Content-Length lines",
                        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello"),
                refused("a Content-Length list", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 5\r\n\r\nhello"),
                refused("a signed Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello"),
                refused("a negative Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n"),
                refused("a Content-Length with letters", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5a\r\n\r\nhello"),
                refused("an empty Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n"),
                refused("an overflowing Content-Length",
                        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n"),
                refused("two different Content-Length lines in HTTP/1.0",
                        "POST / HTTP/1.0\r\nContent-Length: 5\r\nContent-Length: 50\r\n\r\nhello"),
                refused("Transfer-Encoding gzip", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n"),
                refused("Transfer-Encoding gzip then chunked",
                        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"),
                refused("Transfer-Encoding chunked then gzip",
                        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n"),
                refused("Transfer-Encoding chunked twice in one line",
                        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n"),
                refused("Transfer-Encoding chunked on two lines",
                        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"),
                refused("Transfer-Encoding xchunked", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n"),
                refused("Transfer-Encoding in capitals",
                        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n0\r\n\r\n"),
                refused("Transfer-Encoding with a trailing comma",
                        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked,\r\n\r\n0\r\n\r\n"),
                refused("Transfer-Encoding after a vertical tab",
                        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \u000bchunked\r\n\r\n0\r\n\r\n"),
                refused("Transfer-Encoding with a space before the colon",
                        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n"),
                refused("Transfer-Encoding in HTTP/1.0",
                        "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                refused("obs-fold with a space", GET + "X-A: a\r\n b\r\n\r\n"),
                refused("obs-fold with a tab", GET + "X-A: a\r\n\tb\r\n\r\n"),
                refused("obs-fold continuing Transfer-Encoding",
                        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n , identity\r\n\r\n0\r\n\r\n"),
                refused("a first header line starting with a space", "GET / HTTP/1.1\r\n Host: a\r\n\r\n"),
                refused("a space between field name and colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n"),
                refused("a tab between field name and colon", GET + "X-A\t: b\r\n\r\n"),
                refused("a space inside a field name", GET + "X A: b\r\n\r\n"),
                refused("a separator inside a field name", GET + "X(A): b\r\n\r\n"),
                refused("a NUL in a field value", GET + "X-A: a\u0000b\r\n\r\n"),
                refused("a bare CR in a field value", GET + "X-A: a\rb\r\n\r\n"),
                refused("a DEL in a field value", GET + "X-A: a\u007fb\r\n\r\n"),
                refused("a bare LF as a line end", "GET / HTTP/1.1\nHost: a\n\n"),
                refused("HTTP/1.1 without Host", "GET / HTTP/1.1\r\n\r\n"),
                refused("two Host lines", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
                refused("an empty Host", "GET / HTTP/1.1\r\nHost:\r\n\r\n"),
                refused("a Host with userinfo", "GET / HTTP/1.1\r\nHost: u@a\r\n\r\n"),
                refused("a Host with a path", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n"),
                refused("an asterisk target with GET", "GET * HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("an authority-form target", "CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n"),
                refused("a target without a leading slash", "GET a/b HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("a target with a fragment", "GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("a target with a broken escape", "GET /a%zz HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("a target with a backslash", "GET /a\\b HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("a target with a non-ASCII octet", "GET /caf\u00e9 HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("an absolute-form target with userinfo", "GET http://u@a/ HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("an absolute-form target with another scheme", "GET ftp://a/ HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("a request line with a tab separator", "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("a request line with a bare CR separator", "GET /\rHTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("a request line with two spaces", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n"),
                refused("a request line after a leading space", " GET / HTTP/1.1\r\nHost: a\r\n\r\n"),
                Arguments.of("HTTP/2.0 in the request line", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
                Arguments.of("a request line over the limit",
                        "GET /" + "a".repeat(DownstreamHarness.MAX_LINE) + " HTTP/1.1\r\nHost: a\r\n\r\n", 414),
                Arguments.of("headers over the limit",
                        GET + "X-A: " + "a".repeat(DownstreamHarness.MAX_HEADERS) + "\r\n\r\n", 431));
    }

    private static Arguments refused(String name, String raw) {
        return Arguments.of(name, raw, 400);
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("refusedRequests")
    void refusesRequestWholeAndByteByByte(String name, String raw, int status) {
        Outcome whole = feed(raw, raw.length());
        Outcome byteByByte = feed(raw, 1);

        assertThat(whole.requests()).as("accepted requests").isEmpty();
        assertThat(whole.firstRejection()).as("rejection").isNotNull();
        assertThat(whole.firstRejection().status()).isEqualTo(status);
        assertThat(byteByByte.requests()).isEmpty();
        assertThat(byteByByte.firstRejection()).isNotNull();
        assertThat(byteByByte.firstRejection().status()).isEqualTo(status);
    }

    static Stream<Arguments> brokenChunkedBodies() {
        String head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
        return Stream.of(
                Arguments.of("a chunk size that is not hex", head + "zz\r\nhello\r\n0\r\n\r\n"),
                Arguments.of("a chunk without its CRLF", head + "5\r\nhelloXX0\r\n\r\n"),
                Arguments.of("an overflowing chunk size", head + "fffffffffff\r\n"));
    }

    @ParameterizedTest(name = "refuses {0} after accepting the head")
    @MethodSource("brokenChunkedBodies")
    void refusesBrokenChunkedBodyAfterAcceptingTheHead(String name, String raw) {
        for (int pieceBytes : new int[] {1, raw.length()}) {
            Outcome outcome = feed(raw, pieceBytes);

            assertThat(outcome.requests()).containsExactly("POST /");
            assertThat(outcome.firstRejection()).isNotNull();
            assertThat(outcome.firstRejection().status()).isEqualTo(400);
        }
    }

    static Stream<Arguments> acceptedRequests() {
        return Stream.of(
                Arguments.of("a GET without body", GET + "\r\n", "GET /", ""),
                Arguments.of("a fixed-length body",
                        "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello", "POST /p", "hello"),
                Arguments.of("a chunked body with a trailer",
                        "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Sum: 1\r\n\r\n",
                        "POST /p", "hello world"),
                Arguments.of("Transfer-Encoding chunked between optional whitespace",
                        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\tchunked \r\n\r\n0\r\n\r\n", "POST /", ""),
                Arguments.of("HTTP/1.0 keep-alive without Host",
                        "GET /old HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", "GET /old", ""),
                Arguments.of("an absolute-form target",
                        "GET http://a:8080/x?y=%20 HTTP/1.1\r\nHost: a:8080\r\n\r\n", "GET http://a:8080/x?y=%20", ""),
                Arguments.of("OPTIONS with an asterisk target", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", "OPTIONS *", ""),
                Arguments.of("a Host that is an IPv6 literal with port",
                        "GET / HTTP/1.1\r\nHost: [::1]:80\r\n\r\n", "GET /", ""),
                Arguments.of("leading empty lines before the request line", "\r\n\r\n" + GET + "\r\n", "GET /", ""),
                Arguments.of("a body holding bytes that look like obs-fold",
                        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 7\r\n\r\na\r\n b\r\n", "POST /", "a\r\n b\r\n"));
    }

    @ParameterizedTest(name = "accepts {0} at every split point")
    @MethodSource("acceptedRequests")
    void acceptsRequestAtEverySplitPoint(String name, String raw, String requestLine, String body) {
        for (int split = 0; split <= raw.length(); split++) {
            Outcome outcome = feedSplit(raw, split);

            assertThat(outcome.rejections()).as("rejections split at %d", split).isEmpty();
            assertThat(outcome.requests()).as("requests split at %d", split).containsExactly(requestLine);
            assertThat(outcome.body()).isEqualTo(body);
            assertThat(outcome.messagesEnded()).isEqualTo(1);
        }
    }

    @Test
    void acceptsTwoPipelinedRequestsWhoseBodyLooksLikeAHead() {
        String first = "POST /1 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "d\r\nX: y\r\n folded\r\n0\r\n\r\n";
        String second = "GET /2 HTTP/1.1\r\nHost: a\r\n\r\n";

        for (int pieceBytes : new int[] {1, 7, first.length() + second.length()}) {
            Outcome outcome = feed(first + second, pieceBytes);

            assertThat(outcome.rejections()).isEmpty();
            assertThat(outcome.requests()).containsExactly("POST /1", "GET /2");
            assertThat(outcome.body()).isEqualTo("X: y\r\n folded");
            assertThat(outcome.messagesEnded()).isEqualTo(2);
        }
    }

    @Test
    void refusesObsFoldInASecondPipelinedRequestAfterServingTheFirst() {
        Outcome outcome = feed(GET + "\r\n" + GET + "X-A: a\r\n b\r\n\r\n" + GET + "\r\n", 3);

        assertThat(outcome.requests()).containsExactly("GET /");
        assertThat(outcome.rejections()).hasSize(1);
        assertThat(outcome.firstRejection().status()).isEqualTo(400);
        assertThat(outcome.firstRejection().reason()).contains("obs-fold");
    }

    @Test
    void mapsTooLongLineOnAChunkToBadRequestNotUriTooLong() {
        HttpContent chunk = new DefaultHttpContent(Unpooled.EMPTY_BUFFER);
        chunk.setDecoderResult(DecoderResult.failure(new TooLongHttpLineException("chunk line")));

        assertThat(Http1RequestValidator.fromDecoderFailure(chunk).status()).isEqualTo(400);
    }

    @Test
    void refusesAnHttpVersionOtherThanOnePointZeroOrOne() {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.valueOf("HTTP/1.2"), HttpMethod.GET, "/");
        request.headers().set("Host", "a");

        assertThat(Http1RequestValidator.validate(request).status()).isEqualTo(505);
    }

    @Test
    void refusesAFieldNameThatSkippedValidation() {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/", false);
        request.headers().set("Host", "a").add("X A", "b");

        assertThat(Http1RequestValidator.validate(request).reason()).contains("token");
    }

    @Test
    void refusesAFieldValueThatSkippedValidation() {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/", false);
        request.headers().set("Host", "a").add("X-A", "b\r\nX-B: c");

        assertThat(Http1RequestValidator.validate(request).reason()).contains("control octet");
    }

    @Test
    void rejectionRefusesAStatusThatIsNotAnError() {
        assertThatThrownBy(() -> new Rejection(200, "fine"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("200");
    }
}
