package io.tollgate.server.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboEchoService;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.testing.ZooKeeperServer;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Dubbo consumer that negotiates its serialization from what its registry says of the provider
 * (Dubbo's default: the first of the provider's {@code prefer.serialization} it has) calls through
 * the gateway. Real Dubbo 3.3 providers with Dubbo's serialization settings register in ZooKeeper
 * under {@code /dubbo}, where the gateway finds them for its per-service template; each one's
 * registration is published again under {@code /edge} with the gateway's address, as an operator
 * puts a gateway in front of a service, and the consumer finds it there: it sends what it
 * negotiated from the provider's own URL parameters.
 */
class NegotiatedSerializationTest {

    private static final String INTERFACE = DubboEchoService.class.getName();

    private static final StartedResources STARTED = new StartedResources();
    private static ZooKeeperServer zookeeper;
    private static TestGateway gateway;
    private static CuratorFramework registry;

    @BeforeAll
    static void start() throws Exception {
        zookeeper = STARTED.add(ZooKeeperServer.start());
        gateway = STARTED.add(TestGateway.start(PerServiceDubboTest.CONFIG, Map.of("ZK", zookeeper.ensemble())));
        registry = CuratorFrameworkFactory.newClient(zookeeper.ensemble(), new RetryOneTime(100));
        registry.start();
    }

    @AfterAll
    static void stop() {
        registry.close();
        STARTED.close();
    }

    /** Dubbo 3.3's own default, {@code hessian2,fastjson2}: the consumer sends hessian2. */
    @Test
    void aConsumerNegotiatingDubbosDefaultPreferenceCallsThrough() throws Exception {
        assertThat(callThroughTheGateway("defaults", "")).startsWith("hessian2");
    }

    /**
     * A provider preferring fastjson2, as Dubbo 3.2 did by default and as {@code prefer-serialization}
     * sets it: the consumer sends fastjson2, whose body the gateway reads to route the call.
     */
    @Test
    void aConsumerNegotiatingFastjson2CallsThrough() throws Exception {
        assertThat(callThroughTheGateway("fastjson2", "fastjson2,hessian2")).startsWith("fastjson2");
    }

    /**
     * Starts a provider of group {@code group} preferring {@code preferred} (Dubbo's default when
     * empty), registers the gateway in its place under {@code /edge}, calls it there through a
     * consumer of that registry, asserts the provider answered, and returns the registered
     * {@code prefer.serialization}.
     */
    private String callThroughTheGateway(String group, String preferred) throws Exception {
        STARTED.add(DubboProvider.named(group).group(group).version("1.0").preferSerialization(preferred)
                .registry("zookeeper://" + zookeeper.ensemble()).registerMode("interface").start());
        String registered = registration(group);
        String prefer = parameter(registered, "prefer.serialization");
        String atGateway = registered.replaceFirst("://[^/]+/", "://127.0.0.1:" + gateway.port("dubbo") + "/");
        registry.create().creatingParentsIfNeeded().forPath("/edge/" + INTERFACE + "/providers/"
                + URLEncoder.encode(atGateway, StandardCharsets.UTF_8));

        // the first call waits while the gateway makes the service's cluster (at most the registry's 5 s
        // connection timeout), beside a cold consumer's own first-call cost: its bound is not Dubbo's 5 s
        DubboConsumer consumer = STARTED.add(DubboConsumer.through("zookeeper://" + zookeeper.ensemble(), "edge")
                .group(group).version("1.0").timeout(Duration.ofSeconds(20)).connect());
        for (int i = 0; i < 3; i++) {
            assertThat(consumer.service().tagged("call" + i)).isEqualTo(group + ":call" + i);
        }
        assertThat(gateway.gateway().snapshot().clusters().cluster("dubbo-services[" + group + "/" + INTERFACE + ":1.0]"))
                .isNotNull();
        return prefer;
    }

    /** The URL the provider of {@code group} registered under {@code /dubbo}, once it is there. */
    private static String registration(String group) throws Exception {
        String[] found = new String[1];
        Await.until("the registration of the provider of group " + group, Duration.ofSeconds(20),
                () -> (found[0] = registered(group)) != null);
        return found[0];
    }

    private static String registered(String group) {
        try {
            return registry.getChildren().forPath("/dubbo/" + INTERFACE + "/providers").stream()
                    .map(node -> URLDecoder.decode(node, StandardCharsets.UTF_8))
                    .filter(url -> group.equals(parameter(url, "group"))).findFirst().orElse(null);
        } catch (Exception e) { // not written yet: Curator declares Exception
            return null;
        }
    }

    private static String parameter(String url, String name) {
        for (String pair : url.substring(url.indexOf('?') + 1).split("&")) {
            if (pair.startsWith(name + "=")) {
                return pair.substring(name.length() + 1);
            }
        }
        return "";
    }
}
