package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Stream states and request heads as RFC 9113 wants them kept, each sent as raw frames: the
 * answer is the stream or connection error the RFC names, and nothing malformed is forwarded.
 */
class Http2StrictFramingTest {

    private static final AtomicInteger forwarded = new AtomicInteger();
    private static final CountDownLatch release = new CountDownLatch(1);
    private static HttpUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstream = new HttpUpstream().handle("/", exchange -> {
            forwarded.incrementAndGet();
            if (exchange.getRequestURI().getPath().startsWith("/held")) {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        gateway = TestGateway.start("""
                event_loops: 1
                listeners:
                  - name: h2
                    port: 0
                    protocols: [h2c]
                    route_config: ${ROUTES}
                  - name: mixed
                    port: 0
                    protocols: [http1, h2c]
                    route_config: ${ROUTES}
                clusters:
                  - name: upstream
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                """, Map.of("PORT", upstream.port(), "ROUTES",
                "{ virtual_hosts: [ { name: all, domains: ['*'], routes: [ { match: { prefix: / }, route: { cluster: upstream } } ] } ] }"));
    }

    @AfterAll
    static void stop() {
        release.countDown();
        gateway.close();
        upstream.close();
    }

    @Test
    void invalidPrefaceOnAPortSharedWithHttp1GetsGoAway() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("mixed"))) {
            client.raw("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertConnectionError(client, Http2Error.PROTOCOL_ERROR);
        }
    }

    /**
     * Bytes that begin like the preface and differ within its first four, in a way HTTP/1.1 does
     * not claim either, were closed without a word on the shared port; an HTTP/2-only port (and
     * TLS with ALPN h2, the same codec) answers every broken preface with GOAWAY.
     */
    @Test
    void prefaceBrokenWithinItsMethodGetsGoAwayOnASharedPortAndAnHttp2OnlyOne() throws Exception {
        for (String listener : new String[] {"mixed", "h2"}) {
            for (String bytes : new String[] {"P\r\n\r\n", "PR\0\0", "PRI\r\n\r\n",
                    "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\nGET / HTTP/1.1\r\n"}) {
                try (RawH2 client = new RawH2(gateway.port(listener))) {
                    client.raw(bytes.getBytes(StandardCharsets.US_ASCII));
                    RawH2.Frame goAway = client.await(f -> f.type() == RawH2.GOAWAY);
                    assertThat(goAway).as("%s on %s", bytes, listener).isNotNull();
                    assertThat(goAway.errorCode()).isEqualTo((int) Http2Error.PROTOCOL_ERROR.code());
                    assertThat(client.closedByServer()).isTrue();
                }
            }
        }
    }

    /** The legal neighbours of a broken preface: HTTP/1.1 methods beginning with its letters are served. */
    @Test
    void http1MethodsThatBeginLikeThePrefaceAreServedOnASharedPort() throws Exception {
        for (String method : new String[] {"PUT", "PRIX", "POST"}) {
            try (RawHttp client = new RawHttp(gateway.port("mixed"))) {
                client.send(method + " /legal HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\n\r\n");
                assertThat(client.read().status()).as(method).isEqualTo(200);
            }
        }
    }

    @Test
    void headersOnAHalfClosedRemoteStreamIsAStreamClosedError() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface().get(1, "/held/1");
            client.get(1, "/held/again");
            RawH2.Frame error = client.await(f -> f.type() == RawH2.RST_STREAM || f.type() == RawH2.GOAWAY);
            assertThat(error).isNotNull();
            assertThat(error.errorCode()).isEqualTo((int) Http2Error.STREAM_CLOSED.code());
        }
    }

    @Test
    void headersOnAClosedStreamIsAConnectionError() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface().get(1, "/done");
            assertThat(client.await(f -> f.stream() == 1 && f.endsStream())).isNotNull();
            client.get(1, "/again");
            assertConnectionError(client, Http2Error.STREAM_CLOSED);
        }
    }

    @Test
    void streamIdLowerThanAnEarlierOneIsAProtocolErrorOfTheConnection() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface().get(5, "/five");
            assertThat(client.await(f -> f.stream() == 5 && f.endsStream())).isNotNull();
            int before = forwarded.get();
            client.get(3, "/three");
            assertConnectionError(client, Http2Error.PROTOCOL_ERROR);
            assertThat(forwarded.get()).isEqualTo(before);
        }
    }

    @Test
    void requestWithoutSchemeIsRefusedUnforwarded() throws Exception {
        int before = forwarded.get();
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            client.preface().frame(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1,
                    client.headerBlock(new DefaultHttp2Headers().method("GET").path("/noscheme").authority("test")));
            RawH2.Frame error = client.await(f -> f.type() == RawH2.RST_STREAM || f.type() == RawH2.GOAWAY
                    || f.type() == RawH2.HEADERS);
            assertThat(error).isNotNull();
            assertThat(error.type()).isEqualTo(RawH2.RST_STREAM);
            assertThat(error.errorCode()).isEqualTo((int) Http2Error.PROTOCOL_ERROR.code());
        }
        assertThat(forwarded.get()).isEqualTo(before);
    }

    /** Fails unless the next error the gateway sends is GOAWAY with {@code expected}, then it closes. */
    private static void assertConnectionError(RawH2 client, Http2Error expected) throws Exception {
        RawH2.Frame error = client.await(f -> f.type() == RawH2.RST_STREAM || f.type() == RawH2.GOAWAY);
        assertThat(error).isNotNull();
        assertThat(error.type()).as("a connection error, not a stream error").isEqualTo(RawH2.GOAWAY);
        assertThat(error.errorCode()).isEqualTo((int) expected.code());
        assertThat(client.closedByServer()).isTrue();
    }
}
