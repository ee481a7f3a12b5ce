package io.tollgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboEchoService;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.ZooKeeperServer;
import io.tollgate.testing.NacosTestServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar's registry clients as they ship, their dependencies relocated onto what the
 * jar already has: nacos-client's pure jar, whose gRPC client the shade relocation points from
 * grpc-netty-shaded at grpc-netty and the jar's own Netty, and Curator, whose shaded Guava the
 * relocation points at the jar's Guava. The jar, started as {@code java -jar}, finds a real Dubbo
 * 3.3 provider that registered itself in a real registry (ZooKeeper: Curator's server in this
 * JVM; Nacos: given from outside, see {@link NacosTestServer}, skipped without one), and a real
 * Dubbo consumer's call reaches that provider through it.
 */
class RegistryPackagedIT {

    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final String INTERFACE = DubboEchoService.class.getName();

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void theJarFindsADubboProviderInNacosOverGrpcAndCallsReachIt() throws Exception {
        Path jar = PackagedGateway.jar();
        String server = NacosTestServer.address();
        String group = "tollgate-jar-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        try (StartedResources started = new StartedResources()) {
            started.add(DubboProvider.named("in-registry").registry("nacos://" + server + "?group=" + group)
                    .registerMode("interface").start());
            callThroughTheJar(jar, "nacos", "type: nacos, servers: \"" + server + "\", group: " + group);
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void theJarFindsADubboProviderInZooKeeperThroughCuratorAndCallsReachIt() throws Exception {
        Path jar = PackagedGateway.jar();
        try (StartedResources started = new StartedResources()) {
            ZooKeeperServer zookeeper = started.add(ZooKeeperServer.start());
            started.add(DubboProvider.named("in-registry").registry("zookeeper://" + zookeeper.ensemble())
                    .registerMode("interface").start());
            callThroughTheJar(jar, "zk", "type: zookeeper, ensemble: \"" + zookeeper.ensemble() + "\"");
        }
    }

    /**
     * Starts the jar with registry {@code name} ({@code settings}) and a Dubbo listener whose cluster
     * is the providers found there; asserts it connected, found the one provider and routes a call
     * to it, and that it stopped without a leak or a missing class.
     */
    private void callThroughTheJar(Path jar, String name, String settings) throws Exception {
        int admin = FreePort.pick();
        int dubbo = FreePort.pick();
        Path config = Files.writeString(dir.resolve("gateway.yaml"), """
                admin: { address: 127.0.0.1, port: %d }
                registries:
                  - { name: %s, %s, connection_timeout: 5s }
                listeners:
                  - name: dubbo
                    address: 127.0.0.1
                    port: %d
                    protocols: [dubbo]
                    route_config:
                      virtual_hosts:
                        - name: echo
                          domains: ["*"]
                          routes:
                            - match: { prefix: / }
                              route: { cluster: echo }
                clusters:
                  - name: echo
                    discovery: { registry: %s, dubbo: { interface: "%s" } }
                """.formatted(admin, name, settings, dubbo, name, INTERFACE));
        Path log = dir.resolve("gateway.log");
        Process gateway = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Dio.netty.leakDetection.level=paranoid", "-DJM.SNAPSHOT.PATH=" + dir.resolve("nacos"),
                "-jar", jar.toString(), "run", "-c", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try (StartedResources consumers = new StartedResources()) {
            Await.until("the jar's gateway ready, output in " + log, LIMIT, () -> {
                assertThat(gateway.isAlive()).as("gateway alive, output:\n%s", output(log)).isTrue();
                return output(log).contains("gateway ready");
            });
            Await.until("the provider found in " + name + ", output in " + log, LIMIT,
                    () -> services(admin).at("/services/0/providers").size() == 1);

            JsonNode state = services(admin).at("/registries/0");
            assertThat(state.at("/connected").asBoolean()).as("connected").isTrue();
            DubboConsumer consumer = consumers.add(DubboConsumer.to(dubbo).connect());
            assertThat(consumer.service().tagged("through-the-jar")).startsWith("in-registry:");
        } finally {
            stop(gateway);
        }
        assertThat(output(log)).doesNotContain("LEAK:", "NoClassDefFoundError", "NoSuchMethodError");
    }

    private static JsonNode services(int admin) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + admin + "/services")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            return new ObjectMapper().readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String output(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** SIGTERM, bounded; the process killed when it does not stop. */
    private static void stop(Process gateway) throws InterruptedException {
        gateway.destroy();
        if (!gateway.waitFor(60, TimeUnit.SECONDS)) {
            gateway.destroyForcibly().waitFor();
        }
    }
}
