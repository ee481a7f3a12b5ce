package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.ClientCalls;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.TestCertificate;
import io.tollgate.server.testing.TestGateway;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A grpc-java client over TLS, trusting only the test certificate, to a TLS listener, and from
 * there in cleartext to an h2c gRPC server: the client insists on ALPN h2, so a call that
 * completes proves the listener offered it and installed HTTP/2.
 */
class GrpcOverTlsTest {

    private static final String CONFIG = GatewayYaml.gateway(1, "name: grpcs\nprotocols: [http1, h2c]\n${TLS}\n", """
            - { match: { prefix: /test.Echo/ }, route: { cluster: echo, timeout: 10s } }
            """, """
            clusters:
              - name: echo
                protocol: h2
                endpoints: [ { address: 127.0.0.1, port: ${ECHO} } ]
            """);

    private EchoServer echo;
    private TestGateway gateway;
    private ManagedChannel channel;

    @BeforeEach
    void start() throws Exception {
        echo = new EchoServer();
        gateway = TestGateway.start(CONFIG, Map.of("ECHO", echo.port(), "TLS", TestCertificate.tlsBlock("")));
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", gateway.port("grpcs"),
                TlsChannelCredentials.newBuilder().trustManager(TestCertificate.certChainFile().toFile()).build())
                .build();
    }

    @AfterEach
    void stop() throws Exception {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        gateway.close();
        echo.close();
    }

    @Test
    void unaryCallCrossesATlsListener() {
        String reply = ClientCalls.blockingUnaryCall(channel, EchoGrpc.UNARY,
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "over tls");

        assertThat(reply).isEqualTo("over tls");
    }
}
