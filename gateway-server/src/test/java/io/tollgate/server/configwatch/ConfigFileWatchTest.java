package io.tollgate.server.configwatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.Counter;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.server.Gateway;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TrafficLoop;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code config_watch}: the gateway reloads its file by itself when it is edited in place, replaced
 * by a rename, or swapped the way the kubelet swaps a mounted ConfigMap; a bad file is refused and
 * the last good configuration serves on; a burst of writes makes one reload. A client sends
 * requests through the gateway to real upstreams all along, and none fails.
 */
class ConfigFileWatchTest {

    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final String WATCHED = "{ debounce: 300ms }";

    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private HttpUpstream a;
    private HttpUpstream b;
    private Gateway gateway;

    @BeforeEach
    void upstreams() throws IOException {
        a = new HttpUpstream("a");
        b = new HttpUpstream("b");
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        a.close();
        b.close();
    }

    @Test
    void anEditInPlaceIsApplied() throws Exception {
        Path file = startOnFileRoutingToA();

        underTraffic(() -> {
            Files.writeString(file, config("b", WATCHED));
            awaitServedBy("b", 2);
        });
        assertThat(reloads("success")).isEqualTo(1);
    }

    @Test
    void aFileRenamedOverTheOldOneIsApplied() throws Exception {
        Path file = startOnFileRoutingToA();

        underTraffic(() -> {
            Path next = dir.resolve(".gateway.yaml.tmp");
            Files.writeString(next, config("b", WATCHED));
            Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            awaitServedBy("b", 2);
        });
        assertThat(reloads("success")).isEqualTo(1);
    }

    /**
     * The kubelet's layout of a mounted ConfigMap: {@code gateway.yaml -> ..data/gateway.yaml},
     * {@code ..data -> ..2026_01}; an update writes a new timestamped directory, points a new
     * symlink at it, renames that over {@code ..data} and removes the old directory. The file's
     * own inode, path and directory entry never change.
     */
    @Test
    void aKubernetesConfigMapSwapIsApplied() throws Exception {
        Path first = Files.createDirectory(dir.resolve("..2026_11_28_01_00_00.1"));
        Files.writeString(first.resolve("gateway.yaml"), config("a", WATCHED));
        Files.createSymbolicLink(dir.resolve("..data"), first.getFileName());
        start(Files.createSymbolicLink(dir.resolve("gateway.yaml"), Path.of("..data", "gateway.yaml")));

        underTraffic(() -> {
            Path second = swapConfigMap(first, "..2026_11_28_01_05_00.2", config("b", WATCHED));
            awaitServedBy("b", 2);
            swapConfigMap(second, "..2026_11_28_01_10_00.3", config("a", WATCHED));
            awaitServedBy("a", 3);
        });
        assertThat(reloads("success")).isEqualTo(2);
    }

    @Test
    void aBadEditIsRefusedAndTheLastGoodConfigurationServesUntilAGoodOne() throws Exception {
        Path file = startOnFileRoutingToA();

        underTraffic(() -> {
            Files.writeString(file, config("b", WATCHED).replace("prefix: /", "prefix: nope"));
            Await.until("the bad file refused", LIMIT, () -> reloads("failure") == 1);
            assertThat(gateway.snapshot().version()).isEqualTo(1);
            assertThat(upstreamOf(get("/still-a"))).hasValue("a");

            Files.writeString(file, config("b", WATCHED));
            awaitServedBy("b", 2);
        });
        assertThat(reloads("failure")).isEqualTo(1);
        assertThat(reloads("success")).isEqualTo(1);
    }

    /**
     * Twenty writes, each a valid file of its own, each sooner after the last than the quiet time:
     * one reload, of the last. A later change then shows that nothing more was pending. (The
     * writes take milliseconds; a host stalling this thread for the quiet time between two of them
     * would make two bursts, which the test then does not judge.)
     */
    @Test
    void aBurstOfWritesMakesOneReload() throws Exception {
        String watch = "{ debounce: 2s }";
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, config("a", watch));
        start(file);

        long longestGap = 0;
        long last = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            Files.writeString(file, "# write " + i + "\n" + config(i == 19 ? "b" : "a", watch));
            longestGap = Math.max(longestGap, System.nanoTime() - last);
            last = System.nanoTime();
        }
        assumeTrue(longestGap < Duration.ofSeconds(1).toNanos(), "this host stalled the writes for "
                + longestGap / 1_000_000 + " ms, near the quiet time of 2 s: not one burst");
        awaitServedBy("b", 2);
        Files.writeString(file, config("a", watch));
        awaitServedBy("a", 3);

        assertThat(reloads("success")).isEqualTo(2);
    }

    @Test
    void aReloadThatTurnsTheWatchOnStartsWatching() throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, config("a", "{ enabled: false }"));
        start(file);

        Files.writeString(file, config("b", "{ enabled: true, debounce: 300ms }"));
        gateway.reload(); // what SIGHUP does, the only way a change arrives while the file is not watched
        assertThat(upstreamOf(get("/after-reload"))).hasValue("b");
        Files.writeString(file, config("a", "{ enabled: true, debounce: 300ms }"));
        awaitServedBy("a", 3);
    }

    /** A step of a test that changes the file. */
    @FunctionalInterface
    private interface Change {
        void run() throws Exception;
    }

    /** Runs {@code change} while a client sends requests through the gateway; none may fail. */
    private void underTraffic(Change change) throws Exception {
        try (TrafficLoop traffic = new TrafficLoop("config-watch-client", i -> get("/traffic/" + i))) {
            change.run();
            assertThat(traffic.stop()).isEmpty();
        }
    }

    private Path startOnFileRoutingToA() throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, config("a", WATCHED));
        start(file);
        return file;
    }

    /** Writes the new version's directory, renames a symlink to it over {@code ..data}, removes the old one. */
    private Path swapConfigMap(Path old, String name, String yaml) throws IOException {
        Path version = Files.createDirectory(dir.resolve(name));
        Files.writeString(version.resolve("gateway.yaml"), yaml);
        Path link = Files.createSymbolicLink(dir.resolve("..data_tmp"), version.getFileName());
        Files.move(link, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Files.delete(old.resolve("gateway.yaml"));
        Files.delete(old);
        return version;
    }

    /** Routes every request to {@code cluster}; {@code watch} is the {@code config_watch} block. */
    private String config(String cluster, String watch) {
        return "config_watch: " + watch + "\n"
                + GatewayYaml.gateway(1, "name: http\nport: 0", "- { match: { prefix: / }, route: { cluster: " + cluster
                        + " } }", """
                        clusters:
                          - name: a
                            endpoints: [ { address: 127.0.0.1, port: %d } ]
                          - name: b
                            endpoints: [ { address: 127.0.0.1, port: %d } ]
                        admin: { address: 127.0.0.1, port: 0 }
                        """.formatted(a.port(), b.port()));
    }

    private void start(Path file) throws Exception {
        gateway = Gateway.start(ConfigLoader.load(file), file);
        assertThat(upstreamOf(get("/first"))).hasValue("a");
    }

    private void awaitServedBy(String upstream, long version) throws InterruptedException {
        Await.until("version " + version + " served", LIMIT, () -> gateway.snapshot().version() == version);
        Await.until("requests routed to " + upstream, LIMIT, () -> servedBy(upstream));
    }

    private boolean servedBy(String upstream) {
        try {
            return upstreamOf(get("/probe")).equals(Optional.of(upstream));
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port("http") + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static Optional<String> upstreamOf(HttpResponse<String> response) {
        return response.headers().firstValue("x-upstream");
    }

    private double reloads(String result) {
        return gateway.metrics().registry().find("tollgate.config.reload").tags("result", result).counters().stream()
                .mapToDouble(Counter::count).sum();
    }
}
