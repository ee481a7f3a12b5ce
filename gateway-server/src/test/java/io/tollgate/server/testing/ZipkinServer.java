package io.tollgate.server.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real Zipkin server ({@code io.zipkin:zipkin-server} exec jar, copied into
 * {@code target/zipkin} by the build) run as a child JVM on a free port with its default
 * in-memory storage, and a client for its query API.
 */
public final class ZipkinServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final int port;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ZipkinServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts the server's JVM and returns at once, so that a test starts its other parts while
     * Zipkin boots; {@link #awaitReady} waits for it.
     */
    public static ZipkinServer launch(Path logDir) throws IOException {
        Path jar = Path.of("target", "zipkin", "zipkin-server-exec.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar.toAbsolutePath() + " missing: the build copies it in process-test-resources");
        }
        int port = FreePort.pick();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar",
                jar.toAbsolutePath().toString(), "--armeria.ports[0].ip=127.0.0.1", "--armeria.ports[0].port=" + port,
                "--armeria.ports[0].protocols=http")
                .redirectErrorStream(true).redirectOutput(logDir.resolve("zipkin.log").toFile()).start();
        return new ZipkinServer(process, port);
    }

    /** Returns once the server's {@code /health} answers 200; fails if its JVM ended or it took over 180 s. */
    public ZipkinServer awaitReady() throws InterruptedException {
        Await.until("zipkin /health", Duration.ofSeconds(180), () -> process.isAlive() && healthy());
        return this;
    }

    public int port() {
        return port;
    }

    /** Where spans are POSTed. */
    public String spansEndpoint() {
        return "http://127.0.0.1:" + port + "/api/v2/spans";
    }

    /** GET {@code path} of the query API as JSON; fails on a status other than 200. */
    public JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** The spans of trace {@code id}, empty while Zipkin has none. */
    public JsonNode trace(String id) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/api/v2/trace/" + id)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        return response.statusCode() == 404 ? JSON.createArrayNode() : JSON.readTree(response.body());
    }

    private boolean healthy() {
        try {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Stops the child JVM and waits for it. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
