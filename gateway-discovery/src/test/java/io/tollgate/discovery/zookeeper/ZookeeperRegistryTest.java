package io.tollgate.discovery.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.core.config.RegistryConfig;
import io.tollgate.discovery.MethodSignature;
import io.tollgate.discovery.RegistryStatus;
import io.tollgate.discovery.Subscription;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
 * The ZooKeeper registry client against a real ZooKeeper server (Curator's TestingServer): the
 * nodes are written as Dubbo 3.3 and SOFARPC 5.13 write them (FACTS.md), and what reaches the
 * listener, on the control executor, is checked. Dubbo's application level is written with its
 * metadata kept in the registry ({@code metadata-type=remote}); the MetadataService call of
 * {@code local} metadata is tested against real Dubbo providers in gateway-server.
 */
class ZookeeperRegistryTest {

    private static final String ECHO = "com.example.Echo";
    // a bound, not a measure: a test that loads the application-level classes first pays for it on a busy machine
    private static final Duration LIMIT = Duration.ofSeconds(30);

    private TestingServer server;
    private CuratorFramework writer;
    private ExecutorService control;
    private ZookeeperRegistry registry;
    private final AtomicReference<List<EndpointConfig>> last = new AtomicReference<>();
    private final AtomicInteger publications = new AtomicInteger();
    /** The registry client's wall clock (Dubbo's warmups), ms since the epoch. */
    private final AtomicLong now = new AtomicLong(System.currentTimeMillis());
    private volatile Thread listenerThread;
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
                control, now::get);
    }

    @AfterEach
    void stop() throws Exception {
        registry.close();
        control.shutdownNow();
        writer.close();
        server.close();
    }

    private Subscription subscribe(ProviderQueryConfig query) {
        return registry.subscribe(query, (providers, isSynced, changedAt) -> {
            listenerThread = Thread.currentThread();
            publications.incrementAndGet();
            last.set(providers);
            synced = isSynced;
        });
    }

    private static ProviderQueryConfig dubbo(String group, String version) {
        return new ProviderQueryConfig("zk", ProviderQueryConfig.Kind.DUBBO, ECHO, group, version, "", List.of("dubbo"));
    }

    private void register(String providersPath, String url, byte[] data) throws Exception {
        writer.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                .forPath(providersPath + "/" + URLEncoder.encode(url, StandardCharsets.UTF_8), data);
    }

    private void unregister(String providersPath, String url) throws Exception {
        writer.delete().forPath(providersPath + "/" + URLEncoder.encode(url, StandardCharsets.UTF_8));
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

    private static String dubboUrl(int port, String extra) {
        return "dubbo://127.0.0.1:" + port + "/" + ECHO + "?application=demo&interface=" + ECHO
                // started an hour ago: past Dubbo's warmup, at its full weight
                + "&methods=echo,tagged&side=provider&timestamp=" + (System.currentTimeMillis() - 3_600_000) + extra;
    }

    @Test
    void dubboProvidersOfTheQueriedGroupAndVersionOverDubboBecomeHosts() throws Exception {
        String path = "/dubbo/" + ECHO + "/providers";
        register(path, dubboUrl(20001, "&group=blue&version=1.0&weight=40&zone=a"), new byte[0]);
        register(path, dubboUrl(20002, "&group=green&version=1.0"), new byte[0]);
        register(path, dubboUrl(20003, "&group=blue&version=2.0"), new byte[0]);
        register(path, dubboUrl(20004, "&group=blue&version=1.0&disabled=true"), new byte[0]);
        register(path, dubboUrl(20005, "&group=blue&version=1.0&weight=0"), new byte[0]);
        register(path, "tri://127.0.0.1:20006/" + ECHO + "?group=blue&version=1.0", new byte[0]);
        register(path, "not a url", new byte[0]);

        subscribe(dubbo("blue", "1.0"));

        List<EndpointConfig> providers = awaitProviders(p -> synced);
        assertThat(providers).hasSize(1);
        EndpointConfig host = providers.get(0);
        assertThat(host.address()).isEqualTo("127.0.0.1");
        assertThat(host.port()).isEqualTo(20001);
        assertThat(host.weight()).isEqualTo(40);
        assertThat(host.labels()).containsEntry("zone", "a").containsEntry("group", "blue")
                .containsEntry("application", "demo").doesNotContainKeys("methods", "timestamp");
        assertThat(listenerThread.getName()).isEqualTo("test-control");
        RegistryStatus status = registry.status();
        assertThat(status.connected()).isTrue();
        assertThat(status.errors()).isEqualTo(1);
        assertThat(status.subscriptions()).isEqualTo(1);
        assertThat(status.lastEvent()).isPresent();
    }

    @Test
    void theServiceDefinitionDubboWroteGivesTheMethods() throws Exception {
        writer.create().creatingParentsIfNeeded().forPath("/dubbo/metadata/" + ECHO + "/1.0/blue/provider/demo",
                ("{\"canonicalName\":\"" + ECHO + "\",\"methods\":[{\"name\":\"echo\",\"parameterTypes\":"
                        + "[\"java.util.List<java.lang.String>\",\"int\"],\"returnType\":\"java.lang.String\"}]}")
                        .getBytes(StandardCharsets.UTF_8));
        register("/dubbo/" + ECHO + "/providers", dubboUrl(20001, "&group=blue&version=1.0"), new byte[0]);
        Subscription subscription = subscribe(dubbo("blue", "1.0"));
        awaitProviders(p -> synced && p.size() == 1);

        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (subscription.methods().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10); // polling a condition with a bound
        }
        assertThat(subscription.methods()).containsExactly(new MethodSignature("echo",
                List.of("java.util.List<java.lang.String>", "int"), "java.lang.String"));
    }

    @Test
    void providersComeAndGoAndUnchangedOnesStayTheSameObjects() throws Exception {
        String path = "/dubbo/" + ECHO + "/providers";
        String first = dubboUrl(20001, "");
        register(path, first, new byte[0]);
        subscribe(dubbo("", ""));
        EndpointConfig kept = awaitProviders(p -> synced && p.size() == 1).get(0);

        String second = dubboUrl(20002, "");
        register(path, second, new byte[0]);
        List<EndpointConfig> two = awaitProviders(p -> p.size() == 2);
        assertThat(two.get(0)).isSameAs(kept);
        assertThat(two.get(1).port()).isEqualTo(20002);

        unregister(path, first);
        List<EndpointConfig> one = awaitProviders(p -> p.size() == 1);
        assertThat(one.get(0).port()).isEqualTo(20002);
    }

    @Test
    void aServiceNotRegisteredYetIsSyncedEmptyThenFilled() throws Exception {
        subscribe(dubbo("", ""));
        assertThat(awaitProviders(p -> synced)).isEmpty();

        register("/dubbo/" + ECHO + "/providers", dubboUrl(20001, ""), new byte[0]);
        assertThat(awaitProviders(p -> p.size() == 1).get(0).port()).isEqualTo(20001);
    }

    @Test
    void sofaProvidersOnlineOfTheQueriedVersionAndUniqueId() throws Exception {
        String path = "/sofa-rpc/" + ECHO + "/providers";
        register(path, "bolt://127.0.0.1:12201?version=1.0&uniqueId=&weight=100&appName=a&startTime=1", new byte[] {1});
        register(path, "bolt://127.0.0.1:12202?version=1.0&uniqueId=&weight=100", new byte[] {0});
        register(path, "bolt://127.0.0.1:12203?version=1.0&uniqueId=other", new byte[] {1});
        register(path, "bolt://127.0.0.1:12204?version=2.0&uniqueId=", new byte[] {1});
        subscribe(new ProviderQueryConfig("zk", ProviderQueryConfig.Kind.SOFA, ECHO, "", "1.0", "", List.of("bolt")));

        List<EndpointConfig> providers = awaitProviders(p -> synced);
        assertThat(providers).extracting(EndpointConfig::port).containsExactly(12201);
        assertThat(providers.get(0).labels()).containsEntry("appName", "a").doesNotContainKey("startTime");

        writer.setData().forPath(path + "/" + URLEncoder.encode("bolt://127.0.0.1:12202?version=1.0&uniqueId=&weight=100",
                StandardCharsets.UTF_8), new byte[] {1});
        assertThat(awaitProviders(p -> p.size() == 2)).extracting(EndpointConfig::port).containsExactly(12201, 12202);
    }

    @Test
    void zooKeeperDownKeepsTheLastProvidersAndResynchronisesWhenBack() throws Exception {
        String path = "/dubbo/" + ECHO + "/providers";
        writer.create().creatingParentsIfNeeded().forPath(path + "/"
                + URLEncoder.encode(dubboUrl(20001, ""), StandardCharsets.UTF_8)); // persistent: survives the restart
        subscribe(dubbo("", ""));
        awaitProviders(p -> synced && p.size() == 1);
        int before = publications.get();

        server.stop();
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (registry.status().connected() && System.nanoTime() < deadline) {
            Thread.sleep(10); // polling a condition with a bound
        }
        assertThat(registry.status().connected()).isFalse();
        assertThat(last.get()).hasSize(1);

        server.restart();
        writer.blockUntilConnected();
        writer.create().creatingParentsIfNeeded().forPath(path + "/"
                + URLEncoder.encode(dubboUrl(20002, ""), StandardCharsets.UTF_8));
        assertThat(awaitProviders(p -> p.size() == 2)).extracting(EndpointConfig::port).containsExactly(20001, 20002);
        assertThat(publications.get()).isGreaterThan(before);
        assertThat(registry.status().connected()).isTrue();
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
        metadata(application, revision, weight, "\"timestamp\":\"1\"");
    }

    /** As {@link #metadata(String, String, int)}, with {@code parameters} (JSON members) for Echo over dubbo. */
    private void metadata(String application, String revision, int weight, String parameters) throws Exception {
        write("/dubbo/metadata/" + application + "/" + revision, "{\"app\":\"" + application + "\",\"revision\":\""
                + revision + "\",\"services\":{"
                + "\"blue/" + ECHO + ":1.0:dubbo\":{\"name\":\"" + ECHO + "\",\"group\":\"blue\",\"version\":\"1.0\","
                + "\"protocol\":\"dubbo\",\"port\":20880,\"path\":\"" + ECHO + "\",\"params\":{\"weight\":\"" + weight
                + "\",\"side\":\"provider\"," + parameters + "}},"
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
        subscribe(dubbo("blue", "1.0"));

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
        subscribe(dubbo("blue", "1.0"));
        List<EndpointConfig> interfaceOnly = awaitProviders(p -> synced && p.size() == 1);
        assertThat(interfaceOnly.get(0).labels()).containsEntry("found", "interface-level");

        // the provider writes the mapping once it is registered at application level
        write("/dubbo/mapping/" + ECHO, "app1", CreateMode.PERSISTENT);
        List<EndpointConfig> both = awaitProviders(p -> p.size() == 2);
        assertThat(both).extracting(EndpointConfig::port).containsExactly(20001, 20002);
        assertThat(both.get(0)).as("the interface-level host, kept").isSameAs(interfaceOnly.get(0));
    }

    @Test
    void aProviderWarmingUpRampsUpAsDubboRampsIt() throws Exception {
        long start = now.get();
        now.set(start + 5_000); // a quarter of its 20 s warmup
        write("/dubbo/mapping/" + ECHO, "app1", CreateMode.PERSISTENT);
        metadata("app1", "r1", 100, "\"timestamp\":\"" + start + "\",\"warmup\":\"20000\"");
        instance("app1", 20001, "r1");
        write("/dubbo/" + ECHO + "/providers/" + URLEncoder.encode("dubbo://127.0.0.1:20002/" + ECHO + "?interface="
                + ECHO + "&group=blue&version=1.0&weight=200&warmup=20000&timestamp=" + start, StandardCharsets.UTF_8),
                "", CreateMode.EPHEMERAL);
        subscribe(dubbo("blue", "1.0"));
        assertThat(awaitProviders(p -> synced && p.size() == 2)).extracting(EndpointConfig::port, EndpointConfig::weight)
                .containsExactlyInAnyOrder(tuple(20001, 25), tuple(20002, 50));

        now.set(start + 15_000);
        assertThat(awaitProviders(p -> p.stream().anyMatch(h -> h.port() == 20002 && h.weight() == 150)))
                .extracting(EndpointConfig::port, EndpointConfig::weight)
                .containsExactlyInAnyOrder(tuple(20001, 75), tuple(20002, 150));

        now.set(start + 20_000);
        assertThat(awaitProviders(p -> p.stream().allMatch(h -> h.weight() >= 100)))
                .extracting(EndpointConfig::port, EndpointConfig::weight)
                .containsExactlyInAnyOrder(tuple(20001, 100), tuple(20002, 200));
    }
}
