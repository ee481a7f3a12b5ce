package io.tollgate.server;

import static io.tollgate.server.EnvoyResources.staticCluster;
import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.sofa.rpc.common.RpcConstants;
import com.alipay.sofa.rpc.config.ConsumerConfig;
import com.alipay.sofa.rpc.config.ProviderConfig;
import com.alipay.sofa.rpc.config.ServerConfig;
import com.github.xds.type.v3.TypedStruct;
import com.google.protobuf.Any;
import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.server.rpc.EchoService;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.StartedResources;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Bolt listener from xDS, as the gateway's own {@code tollgate.bolt.v1.BoltProxy} in a
 * {@code TypedStruct}: a real SOFARPC consumer (over SOFA Bolt's RpcClient) calls real SOFARPC
 * providers through it, routed by service and method; a pushed change of the routes moves a
 * method to another cluster. Over both ADS protocols, state of the world and incremental.
 */
class XdsBoltTest {

    private static final String SERVICE = EchoService.class.getName() + ":1.0";

    private final StartedResources resources = new StartedResources();
    private ControlPlane controlPlane;

    @AfterEach
    void stop() {
        resources.close();
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"GRPC", "DELTA_GRPC"})
    void aBoltProxyListenerRoutesByServiceAndMethodAndTakesPushedRoutes(String apiType) throws Exception {
        int a = provider("a");
        int b = provider("b");
        controlPlane = resources.add(new ControlPlane());
        push("1", a, b, """
                { "exact": "fail" }""");
        Gateway gateway = resources.add(Gateway.start(ConfigLoader.parse("""
                admin: { address: 127.0.0.1, port: 0 }
                node: { id: tollgate-test, cluster: ingress }
                dynamic_resources: { ads_config: { address: 127.0.0.1, port: %d, api_type: %s } }
                """.formatted(controlPlane.port(), apiType))));
        Await.until("the Bolt listener bound", Duration.ofSeconds(30),
                () -> XdsTestBed.listenersBound(gateway, 1));
        assertThat(gateway.snapshot().config().listeners().get(0).protocols()).containsExactly("bolt");
        EchoService service = consumer(gateway.port("bolt"));

        assertThat(service.echo("x")).isEqualTo("a:x");

        push("2", a, b, """
                { "prefix": "ec" }""");
        Await.until("echo routed to b", Duration.ofSeconds(30), () -> "b:y".equals(service.echo("y")));
        assertThat(service.slow("z")).isEqualTo("a:z");
        boolean delta = apiType.equals("DELTA_GRPC");
        assertThat(controlPlane.deltaRequests().isEmpty()).isEqualTo(!delta);
        assertThat(controlPlane.requests().isEmpty()).isEqualTo(delta);
    }

    /** Pushes listener {@code bolt}: methods matching {@code method} of the echo service to cluster b, the rest to a. */
    private void push(String version, int a, int b, String method) throws IOException {
        Struct.Builder proxy = Struct.newBuilder();
        JsonFormat.parser().merge("""
                {
                  "stat_prefix": "bolt",
                  "bolt": { "max_frame_bytes": 1048576 },
                  "route_config": [
                    {
                      "name": "echo",
                      "service": "%s",
                      "routes": [
                        { "match": { "method": %s }, "route": { "cluster": "b", "timeout": "5s" } },
                        { "match": {}, "route": { "cluster": "a" } }
                      ]
                    }
                  ]
                }""".formatted(SERVICE, method), proxy);
        TypedStruct typed = TypedStruct.newBuilder().setTypeUrl("type.googleapis.com/tollgate.bolt.v1.BoltProxy")
                .setValue(proxy).build();
        Listener listener = Listener.newBuilder().setName("bolt").setAddress(EnvoyResources.address(0))
                .addFilterChains(FilterChain.newBuilder().addFilters(Filter.newBuilder()
                        .setName("tollgate.filters.network.bolt_proxy").setTypedConfig(Any.pack(typed))))
                .build();
        controlPlane.push(version, List.of(staticCluster("a", a), staticCluster("b", b)), List.of(), List.of(listener),
                List.of());
    }

    /** A SOFARPC provider of the echo service answering {@code name:message}. */
    private int provider(String name) throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ServerConfig server = new ServerConfig().setProtocol("bolt").setHost("127.0.0.1").setBoundHost("127.0.0.1")
                .setPort(port).setDaemon(true);
        ProviderConfig<EchoService> provider = new ProviderConfig<EchoService>().setInterfaceId(EchoService.class.getName())
                .setRef(new Tagged(name)).setServer(server).setRegister(false).setRepeatedExportLimit(-1);
        provider.export();
        resources.add((AutoCloseable) () -> {
            provider.unExport();
            server.destroy();
        });
        return port;
    }

    private EchoService consumer(int port) {
        ConsumerConfig<EchoService> config = new ConsumerConfig<EchoService>().setInterfaceId(EchoService.class.getName())
                .setProtocol("bolt").setDirectUrl("bolt://127.0.0.1:" + port).setRegister(false)
                .setInvokeType(RpcConstants.INVOKER_TYPE_SYNC).setTimeout(5000).setRepeatedReferLimit(-1);
        EchoService service = config.refer();
        resources.add((AutoCloseable) config::unRefer);
        return service;
    }

    /** Answers every call with its name and the message. */
    private record Tagged(String name) implements EchoService {

        @Override
        public String echo(String message) {
            return name + ":" + message;
        }

        @Override
        public String fail(String message) {
            throw new IllegalStateException(name + ":" + message);
        }

        @Override
        public String slow(String message) {
            return name + ":" + message;
        }

        @Override
        public void record(String message) {
        }
    }
}
