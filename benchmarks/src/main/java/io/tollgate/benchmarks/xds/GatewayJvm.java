package io.tollgate.benchmarks.xds;

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
 * The gateway under test in a JVM of its own, as in production: started with {@code tollgate
 * run -c} on this JVM's class path and the given JVM options, watched through its admin API,
 * stopped with {@code /quitquitquit}. Apart from the benchmark's JVM, its GC and its CPU profile
 * are the gateway's alone, without the control plane's snapshots and the clients.
 */
public final class GatewayJvm implements AutoCloseable {

    private final Process process;
    private final int adminPort;
    private final GcLog gcLog;
    private final HttpClient admin = HttpClient.newHttpClient();

    private GatewayJvm(Process process, int adminPort, GcLog gcLog) {
        this.process = process;
        this.adminPort = adminPort;
        this.gcLog = gcLog;
    }

    /**
     * Starts {@code yaml}'s gateway, its admin API on {@code adminPort}, with {@code jvmOptions}
     * (space-separated); pinned with {@code taskset} to the CPUs the environment variable
     * {@code GATEWAY_CPUS} lists, when it is set.
     */
    public static GatewayJvm start(String yaml, int adminPort, String jvmOptions) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("eds-bench");
        Path config = Files.writeString(dir.resolve("gateway.yaml"), yaml);
        GcLog gcLog = new GcLog(dir.resolve("gc.log"));
        List<String> command = new ArrayList<>();
        String cpus = System.getenv("GATEWAY_CPUS");
        if (cpus != null && !cpus.isBlank()) {
            command.addAll(List.of("taskset", "-c", cpus.trim()));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String option : jvmOptions.trim().split("\\s+")) {
            if (!option.isEmpty()) {
                command.add(option);
            }
        }
        command.addAll(List.of(gcLog.jvmOption(), "-cp", System.getProperty("java.class.path"),
                "io.tollgate.server.cli.Main", "run", "-c", config.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("gateway.log").toFile()).start();
        GatewayJvm jvm = new GatewayJvm(process, adminPort, gcLog);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (jvm.adminStatus() < 0) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("the gateway did not start; see " + dir.resolve("gateway.log"));
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        System.out.println("gateway JVM: " + String.join(" ", command.subList(0, command.size() - 6)) + "; files in " + dir);
        return jvm;
    }

    private int adminStatus() {
        try {
            return admin.send(HttpRequest.newBuilder(uri("/ready")).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Its meters now. */
    public Scrape scrape() throws IOException, InterruptedException {
        return Scrape.parse(admin.send(HttpRequest.newBuilder(uri("/stats/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    /** Its event loops' and its JVM's CPU time so far, and the benchmark's own. */
    public HostCpu hostCpu() {
        return HostCpu.read(process.toHandle());
    }

    /** Its process id, for {@code jcmd}. */
    public long pid() {
        return process.pid();
    }

    public GcLog gcLog() {
        return gcLog;
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + adminPort + path);
    }

    @Override
    public void close() throws Exception {
        try {
            admin.send(HttpRequest.newBuilder(uri("/quitquitquit")).POST(HttpRequest.BodyPublishers.noBody())
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            // already gone
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
