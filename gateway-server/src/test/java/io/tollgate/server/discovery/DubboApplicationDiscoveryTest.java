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
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.dubbo.rpc.RpcException;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Dubbo 3's application-level registrations: real Dubbo 3.3 providers register in a real
 * ZooKeeper with {@code register-mode} {@code instance} (only {@code /services/{application}} and
 * the mapping) or {@code all}; the gateway maps the interface to the application, reads the
 * instances, resolves each revision to its MetadataInfo (calling the provider's own
 * MetadataService, or reading the metadata report) and real Dubbo consumers call through it.
 */
class DubboApplicationDiscoveryTest {

    private static final String INTERFACE = DubboEchoService.class.getName();
    private static final String APPLICATION = "echo-app";
    private static final String CONFIG = """
            registries:
              - name: zk
                type: zookeeper
                ensemble: ${ZK}
                connection_timeout: ${TIMEOUT}
            listeners:
              - name: dubbo
                port: 0
                protocols: [dubbo]
                route_config:
                  virtual_hosts:
                    - name: echo
                      domains: ["${INTERFACE}"]
                      routes:
                        - match: { prefix: / }
                          route:
                            cluster: plain
                            retry_policy: { retry_on: [connect-failure, reset], num_retries: 2 }
            clusters:
              - name: plain
                discovery: { registry: zk, dubbo: { interface: "${INTERFACE}" } }
            """;
    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StartedResources started = new StartedResources();
    private ZooKeeperServer zookeeper;
    private CuratorFramework zk;
    private String registry;

    @BeforeEach
    void startZooKeeper() throws Exception {
        zookeeper = started.add(ZooKeeperServer.start());
        registry = "zookeeper://" + zookeeper.ensemble();
        zk = CuratorFrameworkFactory.newClient(zookeeper.ensemble(), new RetryOneTime(100));
        started.add((AutoCloseable) zk::close);
        zk.start();
        zk.blockUntilConnected();
    }

    @AfterEach
    void stop() {
        started.close();
    }

    private DubboProvider provider(String name, String registerMode) {
        return started.add(DubboProvider.named(name).application(APPLICATION).registry(registry)
                .registerMode(registerMode).start());
    }

    private TestGateway gateway(String timeout) throws InterruptedException {
        return started.add(TestGateway.start(CONFIG, Map.of("ZK", zookeeper.ensemble(), "INTERFACE", INTERFACE,
                "TIMEOUT", timeout)));
    }

    /** The registry's entry of {@code /services}. */
    private static JsonNode registryState(TestGateway gateway) throws Exception {
        return JSON.readTree(admin(gateway, "/services")).at("/registries/0");
    }

    /** The children of {@code path}, none when it does not exist. */
    private List<String> children(String path) {
        try {
            return zk.checkExists().forPath(path) == null ? List.of() : zk.getChildren().forPath(path);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The distinct metadata revisions of the application's instances, as the providers registered them. */
    private Set<String> revisions(int instances) throws Exception {
        String path = "/services/" + APPLICATION;
        Await.until(instances + " instances registered", LIMIT, () -> children(path).size() == instances);
        Set<String> revisions = new HashSet<>();
        for (String child : zk.getChildren().forPath(path)) {
            revisions.add(JSON.readTree(zk.getData().forPath(path + "/" + child))
                    .at("/payload/metadata").get("dubbo.metadata.revision").asText());
        }
        return revisions;
    }

    @Test
    void providersRegisteredOnlyAtApplicationLevelAreFoundThroughTheirMetadataService() throws Exception {
        provider("a", "instance");
        provider("b", "instance");
        Set<String> revisions = revisions(2);
        assertThat(children("/dubbo/" + INTERFACE + "/providers")).as("interface-level registrations").isEmpty();
        TestGateway gateway = gateway("5s");

        Await.until("both instances in rotation", LIMIT, () -> gateway.inRotation("plain").size() == 2);
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        assertThat(answering(consumer, 20)).containsExactlyInAnyOrder("a", "b");
        assertThat(gateway.gateway().snapshot().clusters().cluster("plain").hosts().get(0).labels())
                .containsEntry("application", APPLICATION).containsEntry("interface", INTERFACE);
        JsonNode host = JSON.readTree(admin(gateway, "/services")).at("/services/0/providers/0");
        assertThat(host.get("weight").asInt()).as("warming up: Dubbo ramps a new provider up over 10 minutes")
                .isBetween(1, 99);

        JsonNode state = registryState(gateway);
        assertThat(state.get("metadata_calls").asLong()).as("one MetadataService call per revision %s", revisions)
                .isEqualTo(revisions.size());
        assertThat(state.get("metadata_failures").asLong()).isZero();
        assertThat(state.get("errors").asLong()).isZero();
        assertThat(admin(gateway, "/stats/prometheus"))
                .contains("tollgate_registry_metadata_calls_total{registry=\"zk\"} " + revisions.size() + ".0")
                .contains("tollgate_registry_metadata_failures_total{registry=\"zk\"} 0.0");
    }

    @Test
    void aProviderRegisteredBothWaysIsOneHostBesideAnInstanceOnlyOne() throws Exception {
        provider("both", "all");
        provider("instance", "instance");
        revisions(2);
        Await.until("the interface-level registration", LIMIT,
                () -> children("/dubbo/" + INTERFACE + "/providers").size() == 1);
        TestGateway gateway = gateway("5s");

        Await.until("both providers in rotation", LIMIT, () -> gateway.inRotation("plain").size() == 2);
        assertThat(gateway.gateway().snapshot().clusters().cluster("plain").hosts()).hasSize(2);
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        assertThat(answering(consumer, 20)).containsExactlyInAnyOrder("both", "instance");
    }

    @Test
    void metadataStoredRemotelyIsReadFromTheMetadataReportWithoutCallingTheProvider() throws Exception {
        started.add(DubboProvider.named("remote").application(APPLICATION).registry(registry)
                .registerMode("instance").metadataType("remote").start());
        String revision = revisions(1).iterator().next();
        assertThat(zk.checkExists().forPath("/dubbo/metadata/" + APPLICATION + "/" + revision)).isNotNull();
        TestGateway gateway = gateway("5s");

        Await.until("the instance in rotation", LIMIT, () -> gateway.inRotation("plain").size() == 1);
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        assertThat(answering(consumer, 5)).containsExactly("remote");
        assertThat(registryState(gateway).get("metadata_calls").asLong()).isZero();
    }

    @Test
    // its own hang guard: two Dubbo runtimes start in it (15-20 s each with one core busy) before the
    // call loop's three phases; every step keeps its own bound
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aProviderKilledUnderACallLoopCostsNoCallBeyondTheRetryPolicy() throws Exception {
        provider("stays", "instance");
        DubboProvider dying = provider("dies", "instance");
        revisions(2);
        TestGateway gateway = gateway("5s");
        Await.until("both instances in rotation", LIMIT, () -> gateway.inRotation("plain").size() == 2);
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        try (CallLoop loop = new CallLoop("calls", () -> consumer.service().tagged("loop"))) {
            Await.until("calls answered by both", LIMIT,
                    () -> loop.firstAnswerNanos("stays") != null && loop.firstAnswerNanos("dies") != null);

            dying.kill(); // its sockets close at once, as when the process dies; its registration stays
            long afterKill = loop.calls();
            Await.until("calls after the kill", LIMIT, () -> loop.calls() > afterKill + 50);
            dying.shutDownGracefully(); // its ZooKeeper session ends: the ephemeral instance node goes
            Await.until("the dead instance out of the cluster", LIMIT, () -> gateway.inRotation("plain").size() == 1);
            long afterRemoval = loop.calls();
            Await.until("calls after its node went", LIMIT, () -> loop.calls() > afterRemoval + 50);
            assertThat(loop.stop()).isEmpty();
        }
        assertThat(zk.getChildren().forPath("/services/" + APPLICATION)).hasSize(1);
    }

    @Test
    void aMetadataServiceThatNeverAnswersTimesOutIsRetriedAndCountedAndItsInstanceLeftOut() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = silent.getLocalPort(); // accepts connections (the backlog) and never answers
            String instance = "{\"name\":\"" + APPLICATION + "\",\"id\":\"127.0.0.1:" + port + "\",\"address\":"
                    + "\"127.0.0.1\",\"port\":" + port + ",\"payload\":{\"metadata\":{"
                    + "\"dubbo.metadata.revision\":\"r1\",\"dubbo.metadata.storage-type\":\"local\","
                    + "\"dubbo.endpoints\":\"[{\\\"port\\\":" + port + ",\\\"protocol\\\":\\\"dubbo\\\"}]\","
                    + "\"dubbo.metadata-service.url-params\":\"{\\\"port\\\":\\\"" + port
                    + "\\\",\\\"protocol\\\":\\\"dubbo\\\",\\\"version\\\":\\\"1.0.0\\\"}\"}}}";
            zk.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .forPath("/services/" + APPLICATION + "/127.0.0.1:" + port, instance.getBytes(StandardCharsets.UTF_8));
            zk.create().creatingParentsIfNeeded().forPath("/dubbo/mapping/" + INTERFACE,
                    APPLICATION.getBytes(StandardCharsets.UTF_8));
            TestGateway gateway = gateway("1s");

            Await.until("three attempts failed", LIMIT, () -> {
                try {
                    return registryState(gateway).get("metadata_failures").asLong() == 3;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            JsonNode state = registryState(gateway);
            assertThat(state.get("metadata_calls").asLong()).isEqualTo(3);
            assertThat(state.get("errors").asLong()).as("the revision not resolved").isEqualTo(1);
            assertThat(gateway.inRotation("plain")).isEmpty();
            DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo"))
                    .timeout(Duration.ofSeconds(10)).connect());
            long start = System.nanoTime();
            assertThatThrownBy(() -> consumer.service().echo("hi")).isInstanceOf(RpcException.class)
                    .hasMessageContaining("no healthy upstream");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        }
    }
}
