package io.tollgate.server.discovery;

import static io.tollgate.server.discovery.DubboDiscoveryCalls.admin;
import static io.tollgate.server.discovery.DubboDiscoveryCalls.answering;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboEchoService;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.testing.ZooKeeperServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real Dubbo 3.3 providers register themselves in a real ZooKeeper (interface level); the gateway
 * finds them there for the clusters that name their service, group and version, and real Dubbo
 * consumers call them through the gateway.
 */
class DubboDiscoveryTest {

    private static final String INTERFACE = DubboEchoService.class.getName();
    private static final String CONFIG = DubboDiscoveryCalls.config("zk", "type: zookeeper, ensemble: \"${ZK}\"");
    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StartedResources started = new StartedResources();
    private ZooKeeperServer zookeeper;
    private String registry;

    @BeforeEach
    void startZooKeeper() throws Exception {
        zookeeper = started.add(ZooKeeperServer.start());
        registry = "zookeeper://" + zookeeper.ensemble();
    }

    @AfterEach
    void stop() {
        started.close();
    }

    private DubboProvider provider(String name, String group, String version) {
        return started.add(DubboProvider.named(name).group(group).version(version).registry(registry)
                .registerMode("interface").start());
    }

    private TestGateway gateway() throws InterruptedException {
        return started.add(TestGateway.start(CONFIG, Map.of("ZK", zookeeper.ensemble(), "INTERFACE", INTERFACE)));
    }

    @Test
    void callsReachTheProvidersOfTheirGroupAndVersionFoundInZooKeeper() throws Exception {
        provider("a", null, null);
        provider("b", null, null);
        // no warmup: its full weight from the start (Dubbo ramps a provider up over 10 minutes by default)
        started.add(DubboProvider.named("blue").group("blue").version("1.0").registry(registry)
                .registerMode("interface").warmup(0).start());
        provider("blue2", "blue", "2.0");
        TestGateway gateway = gateway();

        assertThat(gateway.inRotation("plain")).hasSize(2);
        assertThat(gateway.inRotation("blue")).hasSize(1);
        DubboConsumer plain = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        DubboConsumer blue = started.add(DubboConsumer.to(gateway.port("dubbo")).group("blue").version("1.0")
                .connect());
        assertThat(answering(plain, 20)).containsExactlyInAnyOrder("a", "b");
        assertThat(answering(blue, 10)).containsExactly("blue");
        assertThat(gateway.gateway().snapshot().clusters().cluster("blue").hosts().get(0).labels())
                .containsEntry("group", "blue").containsEntry("version", "1.0")
                .containsEntry("application", "provider-blue");

        JsonNode services = JSON.readTree(admin(gateway, "/services"));
        assertThat(services.at("/registries/0/name").asText()).isEqualTo("zk");
        assertThat(services.at("/registries/0/connected").asBoolean()).isTrue();
        assertThat(services.at("/registries/0/subscriptions").asInt()).isEqualTo(2);
        JsonNode blueService = null;
        for (JsonNode service : services.get("services")) {
            if (service.get("cluster").asText().equals("blue")) {
                blueService = service;
            }
        }
        assertThat(blueService).isNotNull();
        assertThat(blueService.get("service").asText()).isEqualTo("blue/" + INTERFACE + ":1.0");
        assertThat(blueService.get("kind").asText()).isEqualTo("dubbo");
        assertThat(blueService.at("/providers/0/weight").asInt()).isEqualTo(100);
        assertThat(blueService.at("/providers/0/healthy").asBoolean()).isTrue();
        assertThat(blueService.at("/providers/0/labels/application").asText()).isEqualTo("provider-blue");
        Await.until("blue's methods read from its service definition", LIMIT, () -> blueMethods(gateway).contains(
                "tagged(java.lang.String): java.lang.String"));
        assertThat(JSON.readTree(admin(gateway, "/config_dump")).at("/registry_states/0/connected").asBoolean())
                .isTrue();
        assertThat(admin(gateway, "/stats/prometheus")).contains("tollgate_registry_connected{registry=\"zk\"} 1.0");
    }

    /** The methods {@code /services} lists for the blue cluster's service, as {@code name(types): return}. */
    private static List<String> blueMethods(TestGateway gateway) {
        try {
            List<String> methods = new ArrayList<>();
            for (JsonNode service : JSON.readTree(admin(gateway, "/services")).get("services")) {
                if (service.get("cluster").asText().equals("blue")) {
                    for (JsonNode method : service.get("methods")) {
                        List<String> types = new ArrayList<>();
                        method.get("parameter_types").forEach(t -> types.add(t.asText()));
                        methods.add(method.get("name").asText() + "(" + String.join(",", types) + "): "
                                + method.get("return_type").asText());
                    }
                }
            }
            return methods;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aProviderRegisteredBothWaysIsOneHost() throws Exception {
        // Dubbo's default register-mode, all: at interface level and at application level
        started.add(DubboProvider.named("both").registry(registry).application("both-app").start());
        try (CuratorFramework zk = CuratorFrameworkFactory.newClient(zookeeper.ensemble(), new RetryOneTime(100))) {
            zk.start();
            zk.blockUntilConnected();
            Await.until("the application-level registration", LIMIT, () -> {
                try {
                    return zk.checkExists().forPath("/services/both-app") != null
                            && zk.getChildren().forPath("/services/both-app").size() == 1;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
        }
        TestGateway gateway = gateway();

        assertThat(gateway.inRotation("plain")).hasSize(1);
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        assertThat(answering(consumer, 5)).containsExactly("both");
    }

    @Test
    void aServiceWithoutProvidersIsAnsweredAtOnceNotAfterTheTimeout() throws Exception {
        TestGateway gateway = gateway();
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).timeout(Duration.ofSeconds(10))
                .connect());

        long start = System.nanoTime();
        assertThatThrownBy(() -> consumer.service().echo("hi")).isInstanceOf(RpcException.class)
                .hasMessageContaining("no healthy upstream");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aProviderAddedUnderACallLoopGetsTrafficWithinTwoSeconds() throws Exception {
        provider("first", null, null);
        TestGateway gateway = gateway();
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        try (CallLoop loop = new CallLoop("calls", () -> consumer.service().tagged("loop"))) {
            Await.until("calls answered by the first provider", LIMIT, () -> loop.firstAnswerNanos("first") != null);

            long registered = System.nanoTime();
            provider("second", null, null);
            long exported = System.nanoTime();
            Await.until("calls answered by the second provider", LIMIT, () -> loop.firstAnswerNanos("second") != null);

            // measured from the export's end: Dubbo registers the provider as the last step of exporting it
            assertThat(TimeUnit.NANOSECONDS.toMillis(loop.firstAnswerNanos("second") - exported))
                    .as("ms from registration to the first call answered (export took %d ms)",
                            TimeUnit.NANOSECONDS.toMillis(exported - registered))
                    .isLessThan(2000);
            assertThat(loop.stop()).isEmpty();
        }
    }

    @Test
    void aProviderShutDownGracefullyUnderACallLoopCostsNoCall() throws Exception {
        provider("stays", null, null);
        DubboProvider leaving = provider("leaves", null, null);
        TestGateway gateway = gateway();
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        try (CallLoop loop = new CallLoop("calls", () -> consumer.service().tagged("loop"))) {
            Await.until("calls answered by both", LIMIT,
                    () -> loop.firstAnswerNanos("stays") != null && loop.firstAnswerNanos("leaves") != null);

            leaving.shutDownGracefully();
            Await.until("the provider out of the cluster", LIMIT, () -> gateway.inRotation("plain").size() == 1);
            long after = loop.calls();
            Await.until("more calls after", LIMIT, () -> loop.calls() > after + 20);
            assertThat(loop.stop()).isEmpty();
        }
    }

    @Test
    void zooKeeperStoppedAndRestartedChangesNothingForCallers() throws Exception {
        provider("a", null, null);
        provider("b", null, null);
        TestGateway gateway = gateway();
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        try (CallLoop loop = new CallLoop("calls", () -> consumer.service().tagged("loop"))) {
            Await.until("calls answered by both", LIMIT,
                    () -> loop.firstAnswerNanos("a") != null && loop.firstAnswerNanos("b") != null);

            zookeeper.stop();
            long during = loop.calls();
            Await.until("calls while ZooKeeper is down", LIMIT, () -> loop.calls() > during + 50);
            assertThat(gateway.inRotation("plain")).hasSize(2);

            zookeeper.restart();
            long after = loop.calls();
            Await.until("calls once ZooKeeper is back", LIMIT, () -> loop.calls() > after + 50);
            assertThat(gateway.inRotation("plain")).hasSize(2);
            assertThat(loop.stop()).isEmpty();
        }
    }

    @Test
    void configurationRejectsADiscoveredClusterOfAnUnknownRegistry() {
        assertThatThrownBy(() -> TestGateway.start(CONFIG.replace("registry: zk, dubbo: { interface: \"${INTERFACE}\" }",
                "registry: nacos, dubbo: { interface: \"${INTERFACE}\" }"), Map.of("ZK", zookeeper.ensemble(),
                "INTERFACE", INTERFACE)))
                .hasMessageContaining("clusters[0].discovery.registry: unknown registry 'nacos' (expected one of [zk])");
    }

}
