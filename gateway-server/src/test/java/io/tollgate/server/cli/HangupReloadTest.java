package io.tollgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.server.Gateway;
import io.tollgate.server.testing.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** SIGHUP sent to the process reloads the configuration file. */
class HangupReloadTest {

    private static final String CONFIG = """
            admin: { address: 127.0.0.1, port: 0 }
            event_loops: 1
            listeners:
              - name: http
                port: 0
                route_config:
                  virtual_hosts:
                    - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: app } } ] }
            clusters:
              - name: app
                endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
            """;

    @Test
    void aHangupSignalAppliesTheRewrittenFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, CONFIG.replace("${PORT}", "1"));
        assertThat(hangupIgnored()).as("SIGHUP is ignored by this JVM (was the build started under nohup?), and the"
                + " JVM then installs no handler for it").isFalse();
        try (Gateway gateway = Gateway.start(ConfigLoader.load(file), file)) {
            HangupReload.install(gateway);
            Files.writeString(file, CONFIG.replace("${PORT}", "2"));

            Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(ProcessHandle.current().pid())).start();

            assertThat(kill.waitFor()).isZero();
            Await.until("version 2", Duration.ofSeconds(10), () -> gateway.snapshot().version() == 2);
            assertThat(gateway.snapshot().clusters().cluster("app").hosts().get(0).address().getPort()).isEqualTo(2);
        }
    }

    @Test
    void aHangupSignalRefusesAFileWithSeveralMistakesLoggingEachOfThem(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, CONFIG.replace("${PORT}", "1"));
        assertThat(hangupIgnored()).isFalse();
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        Logger gatewayLog = (Logger) LoggerFactory.getLogger(Gateway.class);
        logged.start();
        gatewayLog.addAppender(logged);
        try (Gateway gateway = Gateway.start(ConfigLoader.load(file), file)) {
            HangupReload.install(gateway);
            Files.writeString(file, CONFIG.replace("${PORT}", "0").replace("port: 0\n", "port: -1\n")
                    .replace("prefix: /", "prefix: x"));

            Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(ProcessHandle.current().pid())).start();

            assertThat(kill.waitFor()).isZero();
            Await.until("the rejection logged", Duration.ofSeconds(10), () -> logged.list.stream()
                    .anyMatch(e -> e.getFormattedMessage().contains("rejected")));
            assertThat(gateway.snapshot().version()).isEqualTo(1);
            String rejection = logged.list.stream().map(ILoggingEvent::getFormattedMessage)
                    .filter(m -> m.contains("rejected")).findFirst().orElseThrow();
            assertThat(rejection.substring(rejection.indexOf("version 1: ") + "version 1: ".length()).lines())
                    .containsExactly(
                            "listeners[0].port: -1 (expected: 0..65535)",
                            "listeners[0].route_config.virtual_hosts[0].routes[0].match.prefix: must start with '/'"
                                    + " (was 'x')",
                            "clusters[0].endpoints[0].port: 0 (expected: 1..65535)");
        } finally {
            gatewayLog.detachAppender(logged);
        }
    }

    @Test
    void aGatewayStartedUnderNohupSaysItCannotReloadOnHangup(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, CONFIG.replace("${PORT}", "1"));
        Path log = dir.resolve("gateway.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process gateway = new ProcessBuilder("nohup", java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", "-c", file.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Await.until("the warning logged", Duration.ofSeconds(60),
                    () -> logged(log).contains("SIGHUP is ignored by this process"));
            assertThat(logged(log)).contains("reload with POST /config/reload on the admin API");
        } finally {
            gateway.destroy();
            assertThat(gateway.waitFor(20, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** What the child process wrote so far; nothing before its log exists. */
    private static String logged(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "";
        }
    }

    /** Whether this process ignores SIGHUP, as Linux's {@code /proc/self/status} tells; false where it cannot tell. */
    private static boolean hangupIgnored() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return false;
        }
        return Files.readAllLines(status).stream().filter(line -> line.startsWith("SigIgn:"))
                .anyMatch(line -> (Long.parseLong(line.substring("SigIgn:".length()).trim(), 16) & 1) != 0);
    }
}
