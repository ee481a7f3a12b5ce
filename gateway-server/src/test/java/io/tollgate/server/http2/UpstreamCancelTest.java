package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.TestGateway;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An h2 host that starts each response, then gives up on the stream with RST_STREAM CANCEL: the
 * cancellation crosses the gateway, and the client's stream is reset with CANCEL as well, gRPC
 * calls included (rather than ended with a made-up UNAVAILABLE status), while the connection
 * carries on with other streams.
 */
class UpstreamCancelTest {

    private static RawUpstream cancelling;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        cancelling = new RawUpstream(UpstreamCancelTest::startThenCancelEveryStream);
        gateway = TestGateway.start(GatewayYaml.gateway(1, """
                name: h2
                protocols: [h2c]
                """, """
                - match: { prefix: / }
                  route: { cluster: h2, timeout: 10s }
                """, """
                clusters:
                  - name: h2
                    protocol: h2
                    endpoints: [ { address: 127.0.0.1, port: ${HOST} } ]
                """), Map.of("HOST", cancelling.port()));
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        cancelling.close();
    }

    @Test
    void aStreamTheHostCancelsMidResponseIsCancelledForTheClient() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2")).preface()) {
            client.get(1, "/plain");

            assertThat(client.await(f -> f.stream() == 1 && f.type() == RawH2.HEADERS)).isNotNull();
            RawH2.Frame reset = client.await(f -> f.stream() == 1 && f.type() == RawH2.RST_STREAM);
            assertThat(reset).isNotNull();
            assertThat(reset.errorCode()).isEqualTo((int) Http2Error.CANCEL.code());
        }
    }

    @Test
    void aGrpcCallTheHostCancelsIsCancelledForTheClientNotGivenAStatus() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2")).preface()) {
            Http2Headers call = RawH2.request("POST", "/echo.Echo/Say")
                    .set("content-type", "application/grpc").set("te", "trailers");
            client.frame(RawH2.HEADERS, RawH2.END_HEADERS, 1, client.headerBlock(call));
            client.frame(RawH2.DATA, RawH2.END_STREAM, 1, new byte[] {0, 0, 0, 0, 1, 'x'});

            RawH2.Frame end = client.await(f -> f.stream() == 1 && (f.type() == RawH2.RST_STREAM || f.endsStream()));

            assertThat(end).isNotNull();
            assertThat(end.type()).as("the call ends with a reset, not with trailers").isEqualTo(RawH2.RST_STREAM);
            assertThat(end.errorCode()).isEqualTo((int) Http2Error.CANCEL.code());
            client.get(3, "/after");
            assertThat(client.await(f -> f.stream() == 3 && f.type() == RawH2.RST_STREAM)).isNotNull();
        }
    }

    /** Answers every stream with a response head and a few body bytes, then RST_STREAM CANCEL. */
    private static void startThenCancelEveryStream(Socket socket) throws Exception {
        H2Peer peer = new H2Peer(socket);
        RawH2.Frame frame;
        while ((frame = peer.read()) != null) {
            if (frame.type() == RawH2.HEADERS) {
                peer.respond(frame.stream(), false, "content-type", "application/grpc");
                peer.send(RawH2.DATA, 0, frame.stream(), new byte[] {0, 0, 0, 0, 1, 'y'});
                peer.send(RawH2.RST_STREAM, 0, frame.stream(),
                        ByteBuffer.allocate(4).putInt((int) Http2Error.CANCEL.code()).array());
            }
        }
    }
}
