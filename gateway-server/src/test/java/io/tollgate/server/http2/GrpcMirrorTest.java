package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ClientInterceptors;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.ServerCalls;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code mirror} filter with a grpc-java client over h2c: unary calls copied to a grpc-java
 * shadow server (an h2 cluster) with the {@code -shadow} authority, and the primary's answers
 * unaffected when the shadow is down or never answers.
 */
class GrpcMirrorTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: grpc
                port: 0
                protocols: [h2c]
                filters: [ { name: mirror, cluster: shadow } ]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - name: down
                          match: { prefix: /test.Echo/, headers: [ { name: shadow, exact: down } ] }
                          route: { cluster: echo, timeout: 30s }
                          filters: { mirror: { cluster: down } }
                        - name: silent
                          match: { prefix: /test.Echo/, headers: [ { name: shadow, exact: silent } ] }
                          route: { cluster: echo, timeout: 500ms }
                          filters: { mirror: { cluster: silent } }
                        - { match: { prefix: /test.Echo/ }, route: { cluster: echo, timeout: 30s } }
            clusters:
              - name: echo
                protocol: h2
                endpoints: [ { address: 127.0.0.1, port: ${ECHO} } ]
              - name: shadow
                protocol: h2
                endpoints: [ { address: 127.0.0.1, port: ${SHADOW} } ]
              - name: down
                protocol: h2
                endpoints: [ { address: 127.0.0.1, port: ${DOWN} } ]
              - name: silent
                protocol: h2
                endpoints: [ { address: 127.0.0.1, port: ${SILENT} } ]
            """;

    /** The message and authority of each copy that reached the shadow. */
    private static final Queue<String> atShadow = new ConcurrentLinkedQueue<>();
    private static final Queue<String> atSilent = new ConcurrentLinkedQueue<>();

    private static EchoServer echo;
    private static Server shadow;
    private static Server silent;
    private static TestGateway gateway;
    private static ManagedChannel channel;

    @BeforeAll
    static void start() throws Exception {
        echo = new EchoServer();
        shadow = recordingServer(atShadow, true);
        silent = recordingServer(atSilent, false);
        gateway = TestGateway.start(CONFIG, Map.of("ECHO", echo.port(), "SHADOW", shadow.getPort(),
                "DOWN", FreePort.pick(), "SILENT", silent.getPort()));
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", gateway.port("grpc"),
                InsecureChannelCredentials.create()).build();
    }

    @AfterAll
    static void stop() throws Exception {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        gateway.close();
        echo.close();
        shadow.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        silent.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    @Test
    void unaryCallsAreCopiedToTheShadowWithItsAuthority() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertThat(unary("call-" + i, null)).isEqualTo("call-" + i);
        }
        String authority = "127.0.0.1-shadow:" + gateway.port("grpc");
        Await.until("5 copies at the shadow", Duration.ofSeconds(5), () -> atShadow.size() == 5);
        assertThat(atShadow).contains("call-0 " + authority, "call-4 " + authority);
        Await.until("5 copies counted sent", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.filter.mirror.sent", "cluster", "shadow") == 5);
    }

    @Test
    void shadowDownOrSilentLeavesEveryAnswerIntact() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertThat(unary("down-" + i, "down")).isEqualTo("down-" + i);
            assertThat(unary("silent-" + i, "silent")).isEqualTo("silent-" + i);
        }
        Await.until("5 copies at the silent shadow", Duration.ofSeconds(5), () -> atSilent.size() == 5);
        Await.until("5 failed copies to the down shadow", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.filter.mirror.failed", "cluster", "down") == 5);
        Await.until("5 timed-out copies to the silent shadow", Duration.ofSeconds(10),
                () -> gateway.count("tollgate.filter.mirror.failed", "cluster", "silent") == 5);
    }

    private static String unary(String message, String shadowHeader) {
        Metadata headers = new Metadata();
        if (shadowHeader != null) {
            headers.put(Metadata.Key.of("shadow", Metadata.ASCII_STRING_MARSHALLER), shadowHeader);
        }
        return ClientCalls.blockingUnaryCall(ClientInterceptors.intercept(channel,
                        MetadataUtils.newAttachHeadersInterceptor(headers)),
                EchoGrpc.UNARY, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS), message);
    }

    /** A grpc-java server of the unary echo that records each call, and answers it only when {@code answers}. */
    private static Server recordingServer(Queue<String> calls, boolean answers) throws IOException {
        ThreadLocal<String> authority = new ThreadLocal<>();
        ServerInterceptor readAuthority = new ServerInterceptor() {
            @Override
            public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
                    ServerCallHandler<Q, A> next) {
                String seen = call.getAuthority();
                ServerCall.Listener<Q> listener = next.startCall(call, headers);
                return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
                    @Override
                    public void onHalfClose() {
                        authority.set(seen);
                        super.onHalfClose();
                    }
                };
            }
        };
        ServerServiceDefinition service = ServerServiceDefinition.builder(EchoGrpc.SERVICE)
                .addMethod(EchoGrpc.UNARY, ServerCalls.asyncUnaryCall((request, response) -> {
                    calls.add(request + " " + authority.get());
                    if (answers) {
                        response.onNext(request);
                        response.onCompleted();
                    }
                }))
                .build();
        return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(ServerInterceptors.intercept(service, readAuthority))
                .directExecutor()
                .build()
                .start();
    }
}
