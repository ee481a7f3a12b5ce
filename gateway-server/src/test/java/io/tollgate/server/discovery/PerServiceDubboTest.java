package io.tollgate.server.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboEchoService;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.testing.ZooKeeperServer;
import java.time.Duration;
import java.util.Map;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Dubbo listener whose one route sends every call to "the providers of the call's own service":
 * no service is named in the configuration. Real Dubbo 3.3 providers register in a real ZooKeeper;
 * each service (interface, group, version) gets its cluster from the template on its first call,
 * which is dropped once unused.
 */
class PerServiceDubboTest {

    private static final String INTERFACE = DubboEchoService.class.getName();
    /** A Dubbo listener routing every call to the template {@code dubbo-services} of registry {@code zk} (at {@code ${ZK}}). */
    static final String CONFIG = """
            registries:
              - name: zk
                type: zookeeper
                ensemble: ${ZK}
                connection_timeout: 5s
            listeners:
              - name: dubbo
                port: 0
                protocols: [dubbo]
                route_config:
                  virtual_hosts:
                    - name: every-service
                      domains: ["*"]
                      routes: [{ match: { prefix: / }, route: { cluster: dubbo-services } }]
            clusters:
              - name: dubbo-services
                lb_policy: least_request
                discovery: { registry: zk, per_service: dubbo, unused_timeout: 3s }
            """;
    private static final Duration LIMIT = Duration.ofSeconds(20);

    private final StartedResources started = new StartedResources();
    private ZooKeeperServer zookeeper;
    private TestGateway gateway;

    @BeforeEach
    void start() throws Exception {
        zookeeper = started.add(ZooKeeperServer.start());
        gateway = started.add(TestGateway.start(CONFIG, Map.of("ZK", zookeeper.ensemble())));
    }

    @AfterEach
    void stop() {
        started.close();
    }

    private DubboProvider provider(String name, String group, String version) {
        return started.add(DubboProvider.named(name).group(group).version(version)
                .registry("zookeeper://" + zookeeper.ensemble()).registerMode("interface").start());
    }

    private boolean serves(String cluster) {
        return gateway.gateway().snapshot().clusters().cluster(cluster) != null;
    }

    @Test
    void eachServiceGetsItsOwnClusterFromTheTemplateOnItsFirstCall() throws Exception {
        provider("plain", null, null);
        provider("blue", "blue", "1.0");
        DubboConsumer plain = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        DubboConsumer blue = started.add(DubboConsumer.to(gateway.port("dubbo")).group("blue").version("1.0").connect());
        assertThat(serves("dubbo-services[" + INTERFACE + "]")).isFalse();

        assertThat(plain.service().tagged("first")).isEqualTo("plain:first");
        assertThat(blue.service().tagged("first")).isEqualTo("blue:first");
        for (int i = 0; i < 10; i++) {
            assertThat(plain.service().tagged("x")).startsWith("plain:");
            assertThat(blue.service().tagged("x")).startsWith("blue:");
        }
        assertThat(gateway.gateway().snapshot().clusters().cluster("dubbo-services[" + INTERFACE + "]").config()
                .lbPolicy()).isEqualTo("least_request");
        assertThat(serves("dubbo-services[blue/" + INTERFACE + ":1.0]")).isTrue();
    }

    @Test
    void aServiceWithoutProvidersIsAnsweredAtOnce() throws Exception {
        provider("plain", null, null);
        DubboConsumer nobody = started.add(DubboConsumer.to(gateway.port("dubbo")).group("nobody")
                .timeout(Duration.ofSeconds(10)).connect());

        // the first call makes the cluster (the gateway's answer, not the consumer's 10 s timeout; the
        // consumer's own first call is slow on a cold JVM), the second finds it empty at once
        long start = System.nanoTime();
        assertThatThrownBy(() -> nobody.service().echo("hi")).isInstanceOf(RpcException.class)
                .hasMessageContaining("no healthy upstream");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        start = System.nanoTime();
        assertThatThrownBy(() -> nobody.service().echo("hi")).isInstanceOf(RpcException.class)
                .hasMessageContaining("no healthy upstream");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void aServiceClusterUnusedForItsTimeoutIsDroppedAndMadeAgainOnTheNextCall() throws Exception {
        provider("plain", null, null);
        DubboConsumer plain = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        assertThat(plain.service().tagged("first")).isEqualTo("plain:first");
        String cluster = "dubbo-services[" + INTERFACE + "]";
        assertThat(serves(cluster)).isTrue();

        Await.until("the unused cluster dropped", LIMIT, () -> !serves(cluster));
        assertThat(plain.service().tagged("again")).isEqualTo("plain:again");
        assertThat(serves(cluster)).isTrue();
    }
}
