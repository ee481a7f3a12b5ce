package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.TestGateway;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * gRPC through the gateway to h2 clusters: a trailers-only UNAVAILABLE answer is retried on
 * another host, and a call past the cluster's max_requests breaker fails UNAVAILABLE at once.
 */
class GrpcRetryTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: retrying
                protocols: [h2c]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - match: { prefix: / }
                          route: { cluster: mixed, retry_policy: { retry_on: [unavailable], num_retries: 1 } }
              - name: guarded
                protocols: [h2c]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - { match: { prefix: / }, route: { cluster: guarded } }
            clusters:
              - name: mixed
                protocol: h2
                endpoints: [ { address: 127.0.0.1, port: ${DOWN} }, { address: 127.0.0.1, port: ${ECHO} } ]
              - name: guarded
                protocol: h2
                circuit_breakers: { max_requests: 1 }
                endpoints: [ { address: 127.0.0.1, port: ${ECHO} } ]
            """;

    private static final AtomicInteger unavailable = new AtomicInteger();
    private static Server down;
    private static EchoServer echo;
    private static TestGateway gateway;
    private static ManagedChannel retrying;
    private static ManagedChannel guarded;

    @BeforeAll
    static void start() throws Exception {
        down = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(ServerServiceDefinition.builder(EchoGrpc.SERVICE)
                        .addMethod(EchoGrpc.UNARY, ServerCalls.<String, String>asyncUnaryCall((request, response) -> {
                            unavailable.incrementAndGet();
                            response.onError(Status.UNAVAILABLE.withDescription("down for maintenance").asRuntimeException());
                        }))
                        .build())
                .build()
                .start();
        echo = new EchoServer();
        gateway = TestGateway.start(CONFIG, Map.of("DOWN", down.getPort(), "ECHO", echo.port()));
        retrying = channel("retrying");
        guarded = channel("guarded");
    }

    @AfterAll
    static void stop() throws Exception {
        retrying.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        guarded.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        gateway.close();
        echo.close();
        down.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    @Test
    void unavailableIsRetriedOnAnotherHost() {
        for (int i = 0; i < 6; i++) {
            assertThat(unary(retrying, "hello " + i, CallOptions.DEFAULT)).isEqualTo("hello " + i);
        }

        assertThat(unavailable.get()).isPositive();
        assertThat(gateway.count("tollgate.upstream.rq.retry", "cluster", "mixed")).isEqualTo(unavailable.get());
    }

    @Test
    void aCallPastMaxRequestsFailsUnavailableAtOnce() throws Exception {
        var hung = ClientCalls.futureUnaryCall(guarded.newCall(EchoGrpc.UNARY,
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS)), "hang");
        Await.until("the first call held upstream", Duration.ofSeconds(10), () -> echo.hanging.get() == 1);

        long startNanos = System.nanoTime();
        assertThatThrownBy(() -> unary(guarded, "second", CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS)))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
                    assertThat(e.getStatus().getDescription()).isEqualTo("upstream_overflow");
                });

        assertThat(Duration.ofNanos(System.nanoTime() - startNanos)).isLessThan(Duration.ofSeconds(2));
        assertThat(gateway.count("tollgate.upstream.rq.overflow", "cluster", "guarded")).isEqualTo(1);
        hung.cancel(true);
    }

    private static String unary(ManagedChannel channel, String request, CallOptions options) {
        return ClientCalls.blockingUnaryCall(channel, EchoGrpc.UNARY, options, request);
    }

    private static ManagedChannel channel(String listener) {
        return Grpc.newChannelBuilderForAddress("127.0.0.1", gateway.port(listener), InsecureChannelCredentials.create())
                .build();
    }
}
