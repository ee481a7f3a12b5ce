package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http2.Http2Headers;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.TestGateway;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway itself enforces a gRPC call's {@code grpc-timeout}: a raw client that has no
 * deadline of its own sends the header, the upstream never answers, and the gateway ends the call
 * with a trailers-only DEADLINE_EXCEEDED long before the route's own timeout; a longer one is cut
 * to the route's {@code max_grpc_timeout}.
 */
class GrpcTimeoutTest {

    private static RawUpstream silent;
    private static TestGateway gateway;
    private static TestGateway capped;

    @BeforeAll
    static void start() throws Exception {
        silent = new RawUpstream(socket -> socket.getInputStream().transferTo(java.io.OutputStream.nullOutputStream()));
        gateway = TestGateway.h2cProxyingTo(silent.port(), "30s");
        capped = TestGateway.start(GatewayYaml.gateway(1, "name: h2\nprotocols: [h2c]\n", """
                - { match: { prefix: / }, route: { cluster: upstream, timeout: 30s, max_grpc_timeout: 300ms } }
                """, """
                clusters:
                  - name: upstream
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                """), Map.of("PORT", silent.port()));
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        capped.close();
        silent.close();
    }

    /** A client asking for 100 s gets the route's {@code max_grpc_timeout} (Envoy's cap), not 100 s. */
    @Test
    void grpcTimeoutLongerThanTheRoutesMaximumIsCutToIt() throws Exception {
        try (RawH2 client = new RawH2(capped.port("h2"))) {
            Http2Headers request = RawH2.request("POST", "/test.Echo/Unary")
                    .add("content-type", "application/grpc").add("te", "trailers").add("grpc-timeout", "100S");
            client.preface()
                    .frame(RawH2.HEADERS, RawH2.END_HEADERS, 1, client.headerBlock(request))
                    .frame(RawH2.DATA, RawH2.END_STREAM, 1, new byte[5]);

            RawH2.Frame answer = client.await(f -> f.type() == RawH2.HEADERS && f.stream() == 1);

            assertThat(answer).as("answered within the client's 5 s read timeout").isNotNull();
            assertThat(client.headers(answer).get("grpc-status")).hasToString("4");
        }
    }

    @Test
    void gatewayEndsACallPastItsGrpcTimeoutWithDeadlineExceeded() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"))) {
            Http2Headers request = RawH2.request("POST", "/test.Echo/Unary")
                    .add("content-type", "application/grpc").add("te", "trailers").add("grpc-timeout", "300m");
            long startNanos = System.nanoTime();
            client.preface()
                    .frame(RawH2.HEADERS, RawH2.END_HEADERS, 1, client.headerBlock(request))
                    .frame(RawH2.DATA, RawH2.END_STREAM, 1, new byte[5]);

            RawH2.Frame answer = client.await(f -> f.type() == RawH2.HEADERS && f.stream() == 1);

            assertThat(answer).isNotNull();
            assertThat(Duration.ofNanos(System.nanoTime() - startNanos)).isLessThan(Duration.ofSeconds(4));
            Http2Headers headers = client.headers(answer);
            assertThat(headers.get("grpc-status")).hasToString("4");
            assertThat(answer.endsStream()).isTrue();
            assertThat(silent.accepted()).isEqualTo(1);
        }
    }
}
