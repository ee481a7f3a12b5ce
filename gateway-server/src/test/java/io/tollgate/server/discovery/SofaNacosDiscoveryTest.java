package io.tollgate.server.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.sofa.rpc.config.RegistryConfig;
import io.tollgate.server.rpc.EchoService;
import io.tollgate.server.rpc.EchoServiceImpl;
import io.tollgate.server.rpc.SofaRpc;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.testing.NacosTestServer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real SOFARPC 5.13 providers register themselves in a real Nacos server through SOFARPC's own
 * Nacos registry (its {@code sofa-rpc} namespace; the server is given from outside, see
 * {@link NacosTestServer}, and the test is skipped without one), each test under a unique id of
 * its own; the gateway's Bolt listener finds them, for a cluster that names the service and for
 * one made per service, and a real SOFARPC consumer calls through it.
 */
class SofaNacosDiscoveryTest {

    private static final String INTERFACE = EchoService.class.getName();
    private static final String CONFIG = SofaDiscoveryConfig.of("nacos", """
                type: nacos
                servers: ${NACOS}
                namespace: sofa-rpc
            """, "\"${UNIQUE_ID}\"");
    private static final Duration LIMIT = Duration.ofSeconds(20);

    private final StartedResources started = new StartedResources();
    private final String uniqueId = "tollgate-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    private String server;


    @BeforeEach
    void findNacos() {
        server = NacosTestServer.address();
    }

    @AfterEach
    void stop() {
        started.close();
    }

    private SofaRpc provider(String uniqueIdOf) {
        return started.add(new SofaRpc(new EchoServiceImpl(),
                new RegistryConfig().setProtocol("nacos").setAddress(server), uniqueIdOf));
    }

    @Test
    void callsReachTheProviderFoundInNacosUntilItLeaves() throws Exception {
        SofaRpc provider = provider(uniqueId);
        TestGateway gateway = started.add(TestGateway.start(CONFIG, Map.of("NACOS", server, "INTERFACE", INTERFACE,
                "UNIQUE_ID", uniqueId)));
        Await.until("the provider found in Nacos", LIMIT, () -> gateway.inRotation("named").size() == 1);
        assertThat(gateway.gateway().snapshot().clusters().cluster("named").hosts().get(0).address().getPort())
                .isEqualTo(provider.port());
        SofaRpc client = started.add(new SofaRpc(new EchoServiceImpl()));

        assertThat(client.refer(gateway.port("bolt"), uniqueId).echo("through the gateway"))
                .isEqualTo("through the gateway");

        provider.close();
        Await.until("the provider that left out of the cluster", LIMIT,
                () -> gateway.inRotation("named").isEmpty());
    }

    @Test
    void aClusterIsMadePerServiceFromTheProvidersInNacos() throws Exception {
        String other = uniqueId + "-other";
        provider(other);
        TestGateway gateway = started.add(TestGateway.start(CONFIG, Map.of("NACOS", server, "INTERFACE", INTERFACE,
                "UNIQUE_ID", uniqueId)));
        SofaRpc client = started.add(new SofaRpc(new EchoServiceImpl()));

        assertThat(client.refer(gateway.port("bolt"), other).echo("per service")).isEqualTo("per service");
        String cluster = "sofa-services[" + INTERFACE + ":1.0:" + other + "]";
        assertThat(gateway.gateway().snapshot().clusters().cluster(cluster)).isNotNull();
    }
}
