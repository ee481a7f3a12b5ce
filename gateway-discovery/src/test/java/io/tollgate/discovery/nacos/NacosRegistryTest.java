package io.tollgate.discovery.nacos;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.nacos.api.PropertyKeyConst;
import com.alibaba.nacos.api.naming.NamingFactory;
import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.pojo.Instance;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.NacosSettings;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.core.config.RegistryConfig;
import io.tollgate.discovery.RegistryStatus;
import io.tollgate.testing.NacosTestServer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Nacos registry client against a real Nacos server (given from outside, see
 * {@link NacosTestServer}; skipped without one): instances are registered through nacos-client
 * under the names and with the metadata Dubbo 3.3 and SOFARPC 5.13 write (their NacosRegistry
 * sources), each test in a group of its own, and what reaches the listener, on the control
 * executor, is checked. One case needs no server: nothing listening where the registry points.
 */
class NacosRegistryTest {

    private static final String ECHO = "com.example.Echo";
    private static final Duration LIMIT = Duration.ofSeconds(15);

    private final String group = "tollgate-test-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    private ExecutorService control;
    private NacosRegistry registry;
    private String server;
    /**
     * One client per provider, as each provider process has its own: Nacos keeps one instance
     * of a service per client.
     */
    private final List<NamingService> providers = new ArrayList<>();
    private final AtomicReference<List<EndpointConfig>> last = new AtomicReference<>();
    private final AtomicInteger publications = new AtomicInteger();
    private volatile Thread listenerThread;
    private volatile boolean synced;


    @BeforeEach
    void startControl() {
        control = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-control"));
    }

    @AfterEach
    void stop() throws Exception {
        if (registry != null) {
            registry.close();
        }
        for (NamingService provider : providers) {
            provider.shutDown();
        }
        control.shutdownNow();
    }

    private static RegistryConfig config(String servers, String group, Duration connectionTimeout) {
        return new RegistryConfig("nacos", RegistryConfig.NACOS, servers, "/", Duration.ofSeconds(60),
                connectionTimeout, Optional.empty(),
                Optional.of(new NacosSettings("", group, NacosSettings.DEFAULT_REQUEST_TIMEOUT)));
    }

    /** A registry on the given server. */
    private void connect() {
        server = NacosTestServer.address();
        registry = NacosRegistry.start(config(server, group, Duration.ofSeconds(3)), control);
    }

    /** Registers {@code instance} as {@code service} from a client of its own, which it returns. */
    private NamingService register(String service, Instance instance) throws Exception {
        Properties properties = new Properties();
        properties.setProperty(PropertyKeyConst.SERVER_ADDR, server);
        NamingService provider = NamingFactory.createNamingService(properties);
        providers.add(provider);
        provider.registerInstance(service, group, instance);
        return provider;
    }

    private void subscribe(ProviderQueryConfig query) {
        registry.subscribe(query, (providers, isSynced, changedAt) -> {
            listenerThread = Thread.currentThread();
            publications.incrementAndGet();
            synced = isSynced;
            last.set(providers);
        });
    }

    private static ProviderQueryConfig dubbo(String group, String version) {
        return new ProviderQueryConfig("nacos", ProviderQueryConfig.Kind.DUBBO, ECHO, group, version, "",
                List.of("dubbo"));
    }

    /** An instance as Dubbo 3.3 registers a provider: its URL's parameters, protocol and path as metadata. */
    private static Instance dubboInstance(int port, String protocol, String group, String version) {
        Map<String, String> metadata = new HashMap<>();
        metadata.put("protocol", protocol);
        metadata.put("path", ECHO);
        metadata.put("interface", ECHO);
        metadata.put("category", "providers");
        metadata.put("side", "provider");
        metadata.put("application", "echo-app");
        metadata.put("methods", "echo,tagged");
        metadata.put("timestamp", "1700000000000");
        if (!group.isEmpty()) {
            metadata.put("group", group);
        }
        if (!version.isEmpty()) {
            metadata.put("version", version);
        }
        return instance(port, metadata);
    }

    private static Instance instance(int port, Map<String, String> metadata) {
        Instance instance = new Instance();
        instance.setIp("127.0.0.1");
        instance.setPort(port);
        instance.setMetadata(metadata);
        return instance;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        await(what, LIMIT, condition);
    }

    private static void await(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + limit + ": " + what);
            }
            Thread.sleep(20); // polling a condition, bounded by LIMIT
        }
    }

    private List<Integer> ports() {
        List<EndpointConfig> providers = last.get();
        return providers == null ? null : providers.stream().map(EndpointConfig::port).sorted().toList();
    }

    @Test
    void dubboProvidersOfTheGroupAndVersionReachTheListenerOnTheControlThread() throws Exception {
        connect();
        String blue = "providers:" + ECHO + ":1.0:blue";
        NamingService leaving = register(blue, dubboInstance(20001, "dubbo", "blue", "1.0"));
        register(blue, dubboInstance(20002, "tri", "blue", "1.0"));
        Instance disabled = dubboInstance(20003, "dubbo", "blue", "1.0");
        disabled.setEnabled(false);
        register(blue, disabled);
        Map<String, String> weighted = new HashMap<>(dubboInstance(20004, "dubbo", "blue", "1.0").getMetadata());
        weighted.put("weight", "40");
        register(blue, instance(20004, weighted));
        register("providers:" + ECHO + ":2.0:blue", dubboInstance(20005, "dubbo", "blue", "2.0"));

        subscribe(dubbo("blue", "1.0"));

        await("both dubbo providers of blue 1.0", () -> List.of(20001, 20004).equals(ports()));
        assertThat(synced).isTrue();
        assertThat(listenerThread.getName()).isEqualTo("test-control");
        EndpointConfig first = last.get().stream().filter(p -> p.port() == 20001).findFirst().orElseThrow();
        assertThat(first.address()).isEqualTo("127.0.0.1");
        assertThat(first.weight()).isEqualTo(100);
        assertThat(first.labels()).containsEntry("group", "blue").containsEntry("version", "1.0")
                .containsEntry("application", "echo-app").doesNotContainKeys("methods", "timestamp");
        assertThat(last.get().stream().filter(p -> p.port() == 20004).findFirst().orElseThrow().weight())
                .isEqualTo(40);

        leaving.deregisterInstance(blue, group, "127.0.0.1", 20001);
        await("the provider that left gone", () -> List.of(20004).equals(ports()));

        RegistryStatus status = registry.status();
        assertThat(status.type()).isEqualTo("nacos");
        assertThat(status.connected()).isTrue();
        assertThat(status.state()).isEqualTo("up");
        assertThat(status.subscriptions()).isEqualTo(1);
        assertThat(status.events()).isPositive();
        assertThat(status.lastEvent()).isPresent();
        assertThat(status.lastError()).isEmpty();
    }

    @Test
    void aDubboProviderWarmingUpGainsWeightAsItsWarmupGoesOn() throws Exception {
        server = NacosTestServer.address();
        long start = 1_700_000_000_000L;
        AtomicLong now = new AtomicLong(start + 5_000);
        registry = NacosRegistry.start(config(server, group, Duration.ofSeconds(3)), control, now::get);
        Map<String, String> metadata = new HashMap<>(dubboInstance(20031, "dubbo", "", "").getMetadata());
        metadata.put("timestamp", Long.toString(start));
        metadata.put("warmup", "20000");
        register("providers:" + ECHO + "::", instance(20031, metadata));

        subscribe(dubbo("", ""));

        // Dubbo's ramp: 5 s into a 20 s warmup, a quarter of the weight
        await("the provider at a quarter of its weight", () -> List.of(25).equals(weights()));
        now.set(start + 20_000);
        // the weight is computed again each twentieth of the warmup (at least 1 s)
        await("the provider at its full weight", () -> List.of(100).equals(weights()));
    }

    private List<Integer> weights() {
        List<EndpointConfig> providers = last.get();
        return providers == null ? null : providers.stream().map(EndpointConfig::weight).toList();
    }

    @Test
    void aServiceWithoutProvidersIsSyncedEmptyAndTheLegacyNameIsReadToo() throws Exception {
        connect();
        subscribe(dubbo("", ""));
        await("the first, empty, list", () -> last.get() != null);
        assertThat(last.get()).isEmpty();
        assertThat(synced).isTrue();

        // Dubbo 2.7.3 and older: no empty parts in the name
        register("providers:" + ECHO, dubboInstance(20011, "dubbo", "", ""));
        register("providers:" + ECHO + "::", dubboInstance(20012, "dubbo", "", ""));
        await("providers under both names", () -> List.of(20011, 20012).equals(ports()));
    }

    @Test
    void aQueryOfAnyVersionListsTheGroupsServices() throws Exception {
        connect();
        register("providers:" + ECHO + ":1.0:blue", dubboInstance(20021, "dubbo", "blue", "1.0"));
        register("providers:" + ECHO + ":2.0:blue", dubboInstance(20022, "dubbo", "blue", "2.0"));
        register("providers:" + ECHO + ":2.0:green", dubboInstance(20023, "dubbo", "green", "2.0"));

        subscribe(dubbo("blue", ProviderQueryConfig.ANY));

        await("blue providers of every version", () -> List.of(20021, 20022).equals(ports()));
    }

    @Test
    void sofaProvidersOfTheirUniqueIdAsSofaRpcRegistersThem() throws Exception {
        connect();
        Map<String, String> metadata = new HashMap<>();
        // as SOFARPC 5.13 writes it: no version
        metadata.put("protocol", "bolt");
        metadata.put("uniqueId", "u1");
        metadata.put("weight", "50");
        metadata.put("appName", "echo-app");
        metadata.put("startTime", "1700000000000");
        Instance provider = instance(12201, metadata);
        provider.setClusterName("default-cluster");
        register(ECHO + ":u1:DEFAULT", provider);
        Map<String, String> other = new HashMap<>(metadata);
        other.put("uniqueId", "u2");
        register(ECHO + ":u2:DEFAULT", instance(12202, other));

        subscribe(new ProviderQueryConfig("nacos", ProviderQueryConfig.Kind.SOFA, ECHO, "", "1.0", "u1",
                List.of("bolt")));

        await("the provider of u1", () -> List.of(12201).equals(ports()));
        EndpointConfig host = last.get().get(0);
        assertThat(host.weight()).isEqualTo(50);
        assertThat(host.labels()).containsEntry("appName", "echo-app").containsEntry("uniqueId", "u1")
                .doesNotContainKey("startTime");
    }

    @Test
    void withNothingListeningTheClientSaysSoAndPublishesNothing() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        registry = NacosRegistry.start(config("127.0.0.1:" + port, group, Duration.ofMillis(300)), control);
        subscribe(dubbo("", ""));

        // nacos-client tries three connections at start-up, then fails the subscription: a few
        // seconds on an idle machine, several times that on a loaded one
        await("the failed subscription counted", Duration.ofSeconds(45), () -> registry.status().errors() > 0);
        RegistryStatus status = registry.status();
        assertThat(status.connected()).isFalse();
        assertThat(status.lastError()).hasValueSatisfying(error -> assertThat(error).startsWith("watching " + ECHO));
        assertThat(status.subscriptions()).isEqualTo(1);
        assertThat(publications).hasValue(0);
    }
}
