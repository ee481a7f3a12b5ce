package io.tollgate.server.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.cli.Main;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A gateway in a child JVM, as {@code tollgate run -c FILE [--upgrade]} runs it, on the test's
 * class path with paranoid leak detection; its output goes to a file the test can read, and its
 * end is checked for leak reports.
 */
public final class GatewayProcess implements AutoCloseable {

    private static final Duration START_LIMIT = Duration.ofSeconds(20);

    private final Process process;
    private final Path output;

    private GatewayProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    /** Starts {@code tollgate run -c config --upgrade-socket socket}, plus {@code --upgrade} when asked. */
    static GatewayProcess start(Path config, Path socket, boolean upgrade, Path output) throws IOException {
        return start(config, socket, upgrade, output, List.of());
    }

    /** As {@link #start(Path, Path, boolean, Path)}, with more JVM options. */
    static GatewayProcess start(Path config, Path socket, boolean upgrade, Path output, List<String> jvmOptions)
            throws IOException {
        return start(List.of(), config, socket, upgrade, output, jvmOptions);
    }

    /**
     * As {@link #start(Path, Path, boolean, Path, List)}, the JVM started by the command {@code
     * launcher} (e.g. {@code ip netns exec NS}, to run the gateway in another network namespace).
     */
    public static GatewayProcess start(List<String> launcher, Path config, Path socket, boolean upgrade, Path output,
            List<String> jvmOptions) throws IOException {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dio.netty.leakDetection.level=paranoid"));
        command.addAll(jvmOptions);
        command.addAll(List.of(Main.class.getName(), "run", "-c", config.toString(), "--upgrade-socket", socket.toString()));
        if (upgrade) {
            command.add("--upgrade");
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        return new GatewayProcess(process, output);
    }

    /** Waits until the gateway logged it is ready (and, in a hot restart, that it took over). */
    public GatewayProcess awaitReady() throws InterruptedException {
        Await.until("gateway ready in " + output, START_LIMIT, () -> {
            assertThat(process.isAlive()).as("gateway process alive, output:\n%s", output()).isTrue();
            return output().contains("gateway ready");
        });
        return this;
    }

    /** Waits for the process to end and returns its exit code. */
    int awaitExit(Duration limit) throws InterruptedException {
        assertThat(process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)).as("process ended, output:\n%s", output())
                .isTrue();
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    public String output() {
        try {
            return Files.exists(output) ? Files.readString(output) : "";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Asserts that the process never reported a buffer leak. */
    public void assertNoLeak() {
        assertThat(output()).doesNotContain("LEAK:");
    }

    /** A port free at the time of asking, for configurations that need fixed ports. */

    /** The admin API's Prometheus page at {@code adminPort}. */
    static String prometheus(HttpClient client, int adminPort) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort
                + "/stats/prometheus")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    /** Ends the process: SIGTERM, then SIGKILL when it does not end in time. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}
