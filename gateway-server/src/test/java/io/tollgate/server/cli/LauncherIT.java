package io.tollgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/tollgate} starting the built jar: the JVM flags it derives from
 * {@code TOLLGATE_MEMORY} (the smallest budget it accepts, 160m) are printed and are the running
 * JVM's, the gateway answers through them, and the class data archive the first run writes when it stops is what the second run maps.
 */
class LauncherIT {

    private static final Duration START_LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void sizesTheJvmToItsMemoryServesAndStartsAgainFromTheArchiveItWrote() throws Exception {
        Path jar = PackagedGateway.jar();
        Path cds = dir.resolve("cds");
        try (HttpUpstream upstream = new HttpUpstream("behind-launcher")) {
            int port = FreePort.pick();
            Path config = Files.writeString(dir.resolve("gateway.yaml"), GatewayYaml.gateway(1,
                    "name: http\naddress: 127.0.0.1\nport: " + port, "- match: { prefix: / }\n  route: { cluster: upstream }\n",
                    """
                    admin: { address: 127.0.0.1, port: %d }
                    clusters:
                      - name: upstream
                        endpoints:
                          - { address: 127.0.0.1, port: %d }
                    """.formatted(FreePort.pick(), upstream.port())));
            Map<String, String> env = Map.of("TOLLGATE_MEMORY", "160m", "TOLLGATE_JAR", jar.toString(),
                    "TOLLGATE_CDS_DIR", cds.toString(), "JAVA_HOME", System.getProperty("java.home"),
                    "JAVA_OPTS", "-Dio.netty.leakDetection.level=paranoid");

            Launched first = Launched.start(config, env, dir.resolve("first.log"));
            try {
                first.awaitReady();
                assertThat(first.output()).contains("tollgate: 160 MiB (TOLLGATE_MEMORY=160m)");
                String flags = "-Xms32m -Xmx32m -XX:MaxDirectMemorySize=32m -XX:MaxMetaspaceSize=64m -XX:+UseSerialGC";
                assertThat(first.printedCommand()).contains(flags, "-XX:ArchiveClassesAtExit=" + cds.resolve("tollgate-"),
                        "-jar " + jar + " run -c " + config);
                assertThat(first.commandLine()).as("the JVM the launcher became")
                        .contains(flags.split(" ")).contains("-Dio.netty.leakDetection.level=paranoid");
                assertAnswers(port);
            } finally {
                assertThat(first.stop()).isZero();
            }
            assertThat(first.output()).doesNotContain("LEAK:");
            try (Stream<Path> written = Files.list(cds)) {
                assertThat(written.filter(p -> p.getFileName().toString().matches("tollgate-\\d+\\.jsa\\.\\d+")))
                        .as("the archive the first run wrote when it stopped").singleElement()
                        .satisfies(p -> assertThat(Files.size(p)).isGreaterThan(1 << 20));
            }

            Launched second = Launched.start(config, env, dir.resolve("second.log"));
            try {
                second.awaitReady();
                assertThat(second.printedCommand()).contains("-XX:SharedArchiveFile=" + cds.resolve("tollgate-"))
                        .doesNotContain("ArchiveClassesAtExit");
                assertThat(second.output()).as("the archive maps (no CDS warning)").doesNotContain("[cds");
                assertAnswers(port);
            } finally {
                assertThat(second.stop()).isZero();
            }
            assertThat(second.output()).doesNotContain("LEAK:");
        }
    }

    private static void assertAnswers(int port) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/through-the-launcher")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("upstream: behind-launcher", "target: /through-the-launcher");
    }

    /** One {@code sh bin/tollgate run -c CONFIG} process, its output in a file. */
    private record Launched(Process process, Path log) {

        static Launched start(Path config, Map<String, String> env, Path log) throws IOException {
            ProcessBuilder builder = new ProcessBuilder("sh", PackagedGateway.launcher().toString(), "run", "-c",
                    config.toString()).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(env);
            return new Launched(builder.start(), log);
        }

        void awaitReady() throws InterruptedException {
            Await.until("gateway ready in " + log, START_LIMIT, () -> {
                assertThat(process.isAlive()).as("launched gateway alive, output:\n%s", output()).isTrue();
                return output().contains("gateway ready");
            });
        }

        /** The {@code java ...} line the launcher printed. */
        String printedCommand() {
            return output().lines().filter(l -> l.startsWith("tollgate: ") && l.contains(" -jar ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no command printed:\n" + output()));
        }

        /** The running process's own command line: the launcher execs java, so it is the JVM's. */
        String commandLine() throws IOException {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline")),
                    StandardCharsets.UTF_8).replace('\0', ' ');
        }

        String output() {
            try {
                return Files.exists(log) ? Files.readString(log) : "";
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        /** SIGTERM (the gateway drains, and a first run writes its archive), then the exit code. */
        int stop() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("gateway did not stop on SIGTERM:\n" + output());
            }
            return process.exitValue();
        }
    }
}
