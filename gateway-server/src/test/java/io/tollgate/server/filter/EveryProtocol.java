package io.tollgate.server.filter;

import com.alipay.sofa.rpc.common.RpcConstants;
import com.alipay.sofa.rpc.config.ConsumerConfig;
import com.alipay.sofa.rpc.config.ProviderConfig;
import com.alipay.sofa.rpc.config.ServerConfig;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.tollgate.server.rpc.EchoService;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.http2.EchoServer;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Real upstreams of the four protocols a stream filter serves, started for one test class: an
 * HTTP/1.1 echo, a grpc-java server of {@code test.Echo}, a SOFARPC provider of
 * {@link EchoService} over Bolt and a Dubbo provider; a gateway in front of them, and real
 * clients of each aimed at its listeners. Everything it starts or makes is closed with it, last
 * made first.
 */
final class EveryProtocol implements AutoCloseable {

    /** The clusters of the four upstreams, {@code http}, {@code grpc}, {@code bolt} and {@code dubbo}, as YAML. */
    static final String CLUSTERS = """
            clusters:
              - name: http
                endpoints: [{ address: 127.0.0.1, port: ${HTTP} }]
              - name: grpc
                protocol: h2
                endpoints: [{ address: 127.0.0.1, port: ${GRPC} }]
              - name: bolt
                endpoints: [{ address: 127.0.0.1, port: ${BOLT} }]
              - name: dubbo
                endpoints: [{ address: 127.0.0.1, port: ${DUBBO} }]
            """;

    /** Calls of each method that reached the SOFARPC provider. */
    final AtomicInteger boltCalls = new AtomicInteger();
    private final StartedResources started = new StartedResources();
    private final int httpPort;
    private final int grpcPort;
    private final int boltPort;
    private final DubboProvider dubbo;

    EveryProtocol() throws Exception {
        try {
            httpPort = started.add(new HttpUpstream("http")).port();
            grpcPort = started.add(new EchoServer()).port();
            boltPort = startSofaProvider();
            dubbo = started.add(DubboProvider.named("dubbo").start());
        } catch (Exception | Error e) {
            started.close();
            throw e;
        }
    }

    /**
     * Starts a gateway from {@code config}, which ends with {@link #CLUSTERS}, its placeholders
     * filled with the upstreams' ports and {@code values}; closed with this.
     */
    TestGateway gateway(String config, Map<String, ?> values) throws InterruptedException {
        Map<String, Object> all = new HashMap<>(values);
        all.putAll(Map.of("HTTP", httpPort, "GRPC", grpcPort, "BOLT", boltPort, "DUBBO", dubbo.port()));
        return started.add(TestGateway.start(config, all));
    }

    /** Calls that reached the Dubbo provider. */
    int dubboCalls() {
        return dubbo.service().calls();
    }

    /** A grpc-java channel to {@code port} (h2c, prior knowledge), shut down with this. */
    ManagedChannel grpc(int port) {
        ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port,
                InsecureChannelCredentials.create()).build();
        started.add(() -> channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
        return channel;
    }

    /** A SOFARPC consumer of {@link EchoService} calling {@code port} over Bolt, synchronous, unreferred with this. */
    EchoService sofa(int port) {
        ConsumerConfig<EchoService> config = new ConsumerConfig<EchoService>()
                .setInterfaceId(EchoService.class.getName())
                .setProtocol("bolt")
                .setDirectUrl("bolt://127.0.0.1:" + port)
                .setRegister(false)
                .setInvokeType(RpcConstants.INVOKER_TYPE_SYNC)
                .setTimeout(5000)
                .setRepeatedReferLimit(8);
        EchoService service = config.refer();
        started.add(config::unRefer);
        return service;
    }

    /** A Dubbo consumer of the echo service calling {@code port}, closed with this. */
    DubboConsumer dubbo(int port) {
        return started.add(DubboConsumer.to(port).connect());
    }

    @Override
    public void close() {
        started.close();
    }

    private int startSofaProvider() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ServerConfig server = new ServerConfig().setProtocol("bolt").setHost("127.0.0.1").setBoundHost("127.0.0.1")
                .setPort(port).setDaemon(true);
        ProviderConfig<EchoService> provider = new ProviderConfig<EchoService>()
                .setInterfaceId(EchoService.class.getName()).setRef(new CountingEcho()).setServer(server)
                .setRegister(false);
        provider.export();
        started.add(() -> {
            provider.unExport();
            provider.getServer().get(0).destroy();
        });
        return port;
    }

    /** The SOFARPC provider's service: echoes, and counts the calls that reached it. */
    private final class CountingEcho implements EchoService {
        @Override
        public String echo(String message) {
            boltCalls.incrementAndGet();
            return message;
        }

        @Override
        public String fail(String message) {
            boltCalls.incrementAndGet();
            throw new IllegalStateException(message);
        }

        @Override
        public String slow(String message) {
            return echo(message);
        }

        @Override
        public void record(String message) {
            boltCalls.incrementAndGet();
        }
    }
}
