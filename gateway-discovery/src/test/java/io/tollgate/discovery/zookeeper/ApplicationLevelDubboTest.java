package io.tollgate.discovery.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.core.config.RegistryConfig;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Dubbo 3's application-level layout read from a real ZooKeeper server (Curator's TestingServer),
 * the nodes written as Dubbo 3.3 writes them with its metadata kept in the registry
 * ({@code metadata-type=remote}, FACTS.md): the mapping, the instances, the MetadataInfo of each
 * revision. (The MetadataService call of {@code local} metadata is tested against real Dubbo
 * providers in gateway-server.)
 */
class ApplicationLevelDubboTest {

    private static final String ECHO = "com.example.Echo";
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private TestingServer server;
    private CuratorFramework writer;
    private ExecutorService control;
    private ZookeeperRegistry registry;
    private final AtomicReference<List<EndpointConfig>> last = new AtomicReference<>();
    private volatile boolean synced;

    @BeforeEach
    void start() throws Exception {
        server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, -1, -1,
                Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1"), true);
        writer = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100));
        writer.start();
        writer.blockUntilConnected();
        control = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-control"));
        registry = ZookeeperRegistry.start(new RegistryConfig("zk", RegistryConfig.ZOOKEEPER,
                server.getConnectString(), "/", Duration.ofSeconds(20), Duration.ofSeconds(5), Optional.empty()),
                control);
    }

    @AfterEach
    void stop() throws Exception {
        registry.close();
        control.shutdownNow();
        writer.close();
        server.close();
    }

    private void subscribe(String group, String version) {
        registry.subscribe(new ProviderQueryConfig("zk", ProviderQueryConfig.Kind.DUBBO, ECHO, group, version, "",
                List.of("dubbo")), (providers, isSynced) -> {
                    last.set(providers);
                    synced = isSynced;
                });
    }

    private List<EndpointConfig> awaitProviders(Predicate<List<EndpointConfig>> condition) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            List<EndpointConfig> providers = last.get();
            if (providers != null && condition.test(providers)) {
                return providers;
            }
            Thread.sleep(10); // polling a condition with a bound
        }
        throw new AssertionError("providers never matched; last seen " + last.get());
    }

    private void write(String path, String data, CreateMode mode) throws Exception {
        writer.create().orSetData().creatingParentsIfNeeded().withMode(mode)
                .forPath(path, data.getBytes(StandardCharsets.UTF_8));
    }

    /** An instance as Dubbo writes it: Curator's ServiceInstance JSON, the revision and ports in its metadata. */
    private void instance(String application, int port, String revision) throws Exception {
        String metadata = "{\"dubbo.metadata.revision\":\"" + revision + "\",\"dubbo.metadata.storage-type\":\"remote\","
                + "\"dubbo.endpoints\":\"[{\\\"port\\\":" + port + ",\\\"protocol\\\":\\\"dubbo\\\"}]\",\"zone\":\"z1\"}";
        write("/services/" + application + "/127.0.0.1:" + port, "{\"name\":\"" + application + "\",\"id\":\"127.0.0.1:"
                + port + "\",\"address\":\"127.0.0.1\",\"port\":" + port + ",\"sslPort\":null,\"payload\":{\"@class\":"
                + "\"org.apache.dubbo.registry.zookeeper.ZookeeperInstance\",\"id\":\"127.0.0.1:" + port
                + "\",\"name\":\"" + application + "\",\"metadata\":" + metadata + "},\"registrationTimeUTC\":1,"
                + "\"serviceType\":\"DYNAMIC\",\"uriSpec\":null}", CreateMode.EPHEMERAL);
    }

    /** A MetadataInfo in the metadata report: Echo in group blue 1.0 over dubbo and tri, and another interface. */
    private void metadata(String application, String revision, int weight) throws Exception {
        write("/dubbo/metadata/" + application + "/" + revision, "{\"app\":\"" + application + "\",\"revision\":\""
                + revision + "\",\"services\":{"
                + "\"blue/" + ECHO + ":1.0:dubbo\":{\"name\":\"" + ECHO + "\",\"group\":\"blue\",\"version\":\"1.0\","
                + "\"protocol\":\"dubbo\",\"port\":20880,\"path\":\"" + ECHO + "\",\"params\":{\"weight\":\"" + weight
                + "\",\"side\":\"provider\",\"timestamp\":\"1\"}},"
                + "\"blue/" + ECHO + ":1.0:tri\":{\"name\":\"" + ECHO + "\",\"group\":\"blue\",\"version\":\"1.0\","
                + "\"protocol\":\"tri\",\"port\":50051,\"path\":\"" + ECHO + "\",\"params\":{}},"
                + "\"com.example.Other:dubbo\":{\"name\":\"com.example.Other\",\"protocol\":\"dubbo\",\"port\":20880,"
                + "\"path\":\"com.example.Other\",\"params\":{}}}}", CreateMode.PERSISTENT);
    }

    @Test
    void instancesOfTheMappedApplicationsServeTheServicesOfTheirRevision() throws Exception {
        write("/dubbo/mapping/" + ECHO, "app1,app2", CreateMode.PERSISTENT);
        metadata("app1", "r1", 40);
        instance("app1", 20001, "r1");
        instance("app1", 20002, "r1");
        instance("app2", 20003, "r9"); // a revision with no MetadataInfo: left out, counted
        subscribe("blue", "1.0");

        List<EndpointConfig> providers = awaitProviders(p -> synced && p.size() == 2);
        assertThat(providers).extracting(EndpointConfig::port).containsExactlyInAnyOrder(20001, 20002);
        assertThat(providers).extracting(EndpointConfig::weight).containsOnly(40);
        assertThat(providers.get(0).labels()).containsEntry("group", "blue").containsEntry("version", "1.0")
                .containsEntry("application", "app1").containsEntry("zone", "z1").containsEntry("side", "provider")
                .doesNotContainKeys("timestamp", "dubbo.metadata.revision");
        assertThat(registry.status().errors()).isEqualTo(1);
        assertThat(registry.status().metadataCalls()).as("remote metadata calls no provider").isZero();

        EndpointConfig kept = providers.stream().filter(p -> p.port() == 20001).findFirst().orElseThrow();
        writer.delete().forPath("/services/app1/127.0.0.1:20002");
        assertThat(awaitProviders(p -> p.size() == 1).get(0)).isSameAs(kept);

        // a new revision (the application deployed again) on a new instance
        metadata("app1", "r2", 100);
        instance("app1", 20004, "r2");
        assertThat(awaitProviders(p -> p.size() == 2)).extracting(EndpointConfig::port, EndpointConfig::weight)
                .containsExactly(tuple(20001, 40), tuple(20004, 100));
    }

    @Test
    void aProviderRegisteredBothWaysIsOneHostAndTheMappingIsFollowed() throws Exception {
        metadata("app1", "r1", 100);
        instance("app1", 20001, "r1");
        instance("app1", 20002, "r1");
        write("/dubbo/" + ECHO + "/providers/" + URLEncoder.encode("dubbo://127.0.0.1:20001/" + ECHO
                + "?interface=" + ECHO + "&group=blue&version=1.0&application=app1&found=interface-level",
                StandardCharsets.UTF_8), "", CreateMode.EPHEMERAL);
        subscribe("blue", "1.0");
        List<EndpointConfig> interfaceOnly = awaitProviders(p -> synced && p.size() == 1);
        assertThat(interfaceOnly.get(0).labels()).containsEntry("found", "interface-level");

        // the provider writes the mapping once it is registered at application level
        write("/dubbo/mapping/" + ECHO, "app1", CreateMode.PERSISTENT);
        List<EndpointConfig> both = awaitProviders(p -> p.size() == 2);
        assertThat(both).extracting(EndpointConfig::port).containsExactly(20001, 20002);
        assertThat(both.get(0)).as("the interface-level host, kept").isSameAs(interfaceOnly.get(0));
    }
}
