package io.tollgate.server.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboEchoService;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.testing.NacosTestServer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real Dubbo 3.3 providers register themselves in a real Nacos server (a {@code nacos://}
 * registry; the server is given from outside, see {@link NacosTestServer}, and the test is
 * skipped without one), each test in a Nacos group of its own; the gateway finds them there and
 * real Dubbo consumers call them through it.
 */
class NacosDubboDiscoveryTest {

    private static final String INTERFACE = DubboEchoService.class.getName();
    private static final String CONFIG = DubboDiscoveryCalls.config("nacos",
            "type: nacos, servers: \"${NACOS}\", group: \"${GROUP}\"");
    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StartedResources started = new StartedResources();
    private final String group = "tollgate-dubbo-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    private String server;


    @BeforeEach
    void findNacos() {
        server = NacosTestServer.address();
    }

    @AfterEach
    void stop() {
        started.close();
    }

    private DubboProvider provider(String name, String dubboGroup, String version) {
        return started.add(DubboProvider.named(name).group(dubboGroup).version(version)
                .registry("nacos://" + server + "?group=" + group).registerMode("interface").start());
    }

    private TestGateway gateway() throws InterruptedException {
        return started.add(TestGateway.start(CONFIG, Map.of("NACOS", server, "GROUP", group, "INTERFACE", INTERFACE)));
    }

    @Test
    // its own hang guard: four Dubbo runtimes start in it, each with its Nacos naming and config
    // clients (10-15 s each on a loaded machine: 66 s seen); every step keeps its own bound
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void callsReachTheProvidersOfTheirGroupAndVersionFoundInNacos() throws Exception {
        provider("a", null, null);
        provider("b", null, null);
        // no warmup: its full weight from the start; the others ramp up over Dubbo's default 10 minutes
        started.add(DubboProvider.named("blue").group("blue").version("1.0")
                .registry("nacos://" + server + "?group=" + group).registerMode("interface").warmup(0).start());
        provider("blue2", "blue", "2.0");
        TestGateway gateway = gateway();
        Await.until("the providers found in Nacos", LIMIT,
                () -> gateway.inRotation("plain").size() == 2 && gateway.inRotation("blue").size() == 1);

        DubboConsumer plain = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        DubboConsumer blue = started.add(DubboConsumer.to(gateway.port("dubbo")).group("blue").version("1.0")
                .connect());
        assertThat(DubboDiscoveryCalls.answering(plain, 20)).containsExactlyInAnyOrder("a", "b");
        assertThat(DubboDiscoveryCalls.answering(blue, 10)).containsExactly("blue");
        assertThat(gateway.gateway().snapshot().clusters().cluster("blue").hosts().get(0).labels())
                .containsEntry("group", "blue").containsEntry("version", "1.0")
                .containsEntry("application", "provider-blue");
        assertThat(gateway.gateway().snapshot().clusters().cluster("blue").hosts().get(0).weight()).isEqualTo(100);
        assertThat(gateway.gateway().snapshot().clusters().cluster("plain").hosts())
                .allSatisfy(host -> assertThat(host.weight()).as("warming up").isBetween(1, 99));

        JsonNode services = JSON.readTree(DubboDiscoveryCalls.admin(gateway, "/services"));
        assertThat(services.at("/registries/0/name").asText()).isEqualTo("nacos");
        assertThat(services.at("/registries/0/type").asText()).isEqualTo("nacos");
        assertThat(services.at("/registries/0/connected").asBoolean()).isTrue();
        assertThat(services.at("/registries/0/subscriptions").asInt()).isEqualTo(2);
        assertThat(services.at("/registries/0/events").asLong()).isPositive();
        JsonNode dump = JSON.readTree(DubboDiscoveryCalls.admin(gateway, "/config_dump"));
        assertThat(dump.at("/registry_states/0/connected").asBoolean()).isTrue();
        assertThat(DubboDiscoveryCalls.admin(gateway, "/stats/prometheus"))
                .contains("tollgate_registry_connected{registry=\"nacos\"} 1.0");
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
    void aProviderAddedUnderACallLoopGetsTraffic() throws Exception {
        provider("first", null, null);
        TestGateway gateway = gateway();
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
        try (CallLoop loop = new CallLoop("calls", () -> consumer.service().tagged("loop"))) {
            Await.until("calls answered by the first provider", LIMIT, () -> loop.firstAnswerNanos("first") != null);

            provider("second", null, null);
            Await.until("calls answered by the second provider", LIMIT, () -> loop.firstAnswerNanos("second") != null);
            assertThat(loop.stop()).isEmpty();
        }
    }
}
