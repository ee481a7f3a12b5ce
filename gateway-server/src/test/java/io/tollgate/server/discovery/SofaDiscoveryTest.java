package io.tollgate.server.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alipay.sofa.rpc.config.RegistryConfig;
import io.tollgate.router.host.Host;
import io.tollgate.server.rpc.EchoService;
import io.tollgate.server.rpc.SofaRpc;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.testing.ZooKeeperServer;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real SOFARPC 5.13 providers register themselves in a real ZooKeeper (SOFARPC's layout, with a
 * {@code uniqueId}); the gateway's Bolt listener finds them there, for a cluster that names the
 * service and for one made per service from a template, and real SOFARPC consumers call through it.
 */
class SofaDiscoveryTest {

    private static final String INTERFACE = EchoService.class.getName();
    private static final String CONFIG = SofaDiscoveryConfig.of("zk", """
                type: zookeeper
                ensemble: ${ZK}
            """, "named");
    private static final Duration LIMIT = Duration.ofSeconds(20);

    private final StartedResources started = new StartedResources();
    private ZooKeeperServer zookeeper;

    @BeforeEach
    void startZooKeeper() throws Exception {
        zookeeper = started.add(ZooKeeperServer.start());
    }

    @AfterEach
    void stop() {
        started.close();
    }

    private SofaRpc provider(String name, String uniqueId) {
        return started.add(new SofaRpc(new Tagging(name), zookeeper.ensemble(), uniqueId));
    }

    private static Set<String> answering(EchoService service, int calls) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < calls; i++) {
            String answer = service.echo("x" + i);
            names.add(answer.substring(0, answer.indexOf(':')));
        }
        return names;
    }

    @Test
    void callsReachTheProvidersOfTheirUniqueIdFoundInZooKeeper() throws Exception {
        provider("n1", "named");
        provider("n2", "named");
        provider("other", "");
        TestGateway gateway = started.add(TestGateway.start(CONFIG, Map.of("ZK", zookeeper.ensemble(),
                "INTERFACE", INTERFACE)));
        assertThat(gateway.inRotation("named")).hasSize(2);
        SofaRpc client = started.add(new SofaRpc(new Tagging("unused")));

        assertThat(answering(client.refer(gateway.port("bolt"), "named"), 20)).containsExactlyInAnyOrder("n1", "n2");
        assertThat(answering(client.refer(gateway.port("bolt"), ""), 5)).containsExactly("other");
        assertThat(gateway.gateway().snapshot().clusters().cluster("sofa-services[" + INTERFACE + ":1.0]"))
                .isNotNull();
    }

    @Test
    void aProviderWarmingUpTakesItsWarmupWeightUntilItsWarmupEnds() throws Exception {
        TestGateway gateway = started.add(TestGateway.start(CONFIG, Map.of("ZK", zookeeper.ensemble(),
                "INTERFACE", INTERFACE)));
        // SOFARPC registers its startTime with these: weight 10 for 8 s from its start, then its weight (100)
        started.add(new SofaRpc(new Tagging("warming"), new RegistryConfig().setProtocol("zookeeper")
                .setAddress(zookeeper.ensemble()), "named", Map.of("warmupTime", "8000", "warmupWeight", "10")));

        Await.until("the provider at its warmup weight", LIMIT, () -> List.of(10).equals(weights(gateway, "named")));
        Await.until("the provider at its own weight once warm", LIMIT,
                () -> List.of(100).equals(weights(gateway, "named")));
        SofaRpc client = started.add(new SofaRpc(new Tagging("unused")));
        assertThat(answering(client.refer(gateway.port("bolt"), "named"), 3)).containsExactly("warming");
    }

    private static List<Integer> weights(TestGateway gateway, String cluster) {
        return gateway.gateway().snapshot().clusters().cluster(cluster).hosts().stream().map(Host::weight).toList();
    }

    @Test
    void aServiceWithoutProvidersIsAnsweredAtOnceNotAfterTheTimeout() throws Exception {
        TestGateway gateway = started.add(TestGateway.start(CONFIG, Map.of("ZK", zookeeper.ensemble(),
                "INTERFACE", INTERFACE)));
        SofaRpc client = started.add(new SofaRpc(new Tagging("unused")));
        EchoService nobody = client.refer(gateway.port("bolt"), "nobody");

        long start = System.nanoTime();
        assertThatThrownBy(() -> nobody.echo("hi")).isInstanceOf(RuntimeException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
        Await.until("the service's empty cluster", LIMIT, () -> gateway.gateway().snapshot().clusters()
                .cluster("sofa-services[" + INTERFACE + ":1.0:nobody]") != null);
    }

    /** Answers {@code name + ":" + message}, so that a test tells which provider answered. */
    private record Tagging(String name) implements EchoService {
        @Override
        public String echo(String message) {
            return name + ":" + message;
        }

        @Override
        public String fail(String message) {
            throw new IllegalStateException(message);
        }

        @Override
        public String slow(String message) {
            return echo(message);
        }

        @Override
        public void record(String message) {
        }
    }
}
